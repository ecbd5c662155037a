-- People (issue 35, docs/people.md): one entry per researcher among an account's AUTHOR rows, kept
-- up to date by the ingest (people.repository.ts). All three tables are sharded by account, so on
-- a cluster one account's people, rows and keys live on one shard and are regrouped there.
--
-- people_rows: one row per AUTHOR row, what people are made of (its identifiers as `keys`:
-- `email:…`, `orcid:…`, `rid:…`) and the person it belongs to. `version` is the update that wrote
-- it: an update writes the regrouped rows under a new version, then deletes the older ones.
CREATE TABLE IF NOT EXISTS {db}.{local:people_rows}{on_cluster}
(
    account_id String,
    person_id String,
    -- The identifier the person's id is made of: its group's smallest (see people.repository.ts).
    anchor String,
    file_id String,
    sheet String,
    row_number UInt32,
    version UInt64,
    keys Array(String),
    name String,
    emails Array(String),
    orcid String,
    researcher_id String,
    year UInt16,
    title String,
    journal String,
    affiliation String,
    country String,
    keywords Array(String)
)
ENGINE = {per_shard:MergeTree}
ORDER BY (account_id, person_id, file_id, sheet, row_number);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.people_rows{on_cluster} AS {db}.people_rows_local ENGINE = {distributed:people_rows:account_id};

-- people_keys: which person holds an identifier, and `file:<AUTHOR file id>` for every file a
-- person has rows in: how an update finds the people a file's rows touch.
CREATE TABLE IF NOT EXISTS {db}.{local:people_keys}{on_cluster}
(
    account_id String,
    key String,
    person_id String,
    version UInt64
)
ENGINE = {per_shard:MergeTree}
ORDER BY (account_id, key, person_id);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.people_keys{on_cluster} AS {db}.people_keys_local ENGINE = {distributed:people_keys:account_id};

-- people: one row per person, aggregated from its people_rows by the engine; `search_text` is the
-- folded text a People search looks in. Sorted most entries first; a person is found by id
-- through the bloom filter.
CREATE TABLE IF NOT EXISTS {db}.{local:people}{on_cluster}
(
    account_id String,
    person_id String,
    anchor String,
    version UInt64,
    name String,
    names Array(String),
    folded_name String,
    emails Array(Tuple(email String, entries UInt32, first_year UInt16, last_year UInt16)),
    orcids Array(String),
    researcher_ids Array(String),
    entries UInt32,
    first_year UInt16,
    last_year UInt16,
    journals Array(String),
    affiliations Array(String),
    countries Array(String),
    keywords Array(String),
    file_ids Array(String),
    search_text String,
    -- Most entries first, as the People search lists them: in the sorting key, so the first page
    -- of a search reads the table in order and stops once it has its people.
    rank UInt32 MATERIALIZED 4294967295 - entries,
    INDEX person_id_index person_id TYPE bloom_filter GRANULARITY 1
)
ENGINE = {per_shard:MergeTree}
ORDER BY (account_id, rank, name, person_id);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.people{on_cluster} AS {db}.people_local ENGINE = {distributed:people:account_id};

-- people_work: what one update (its version) works with: the people it regroups (kind
-- 'person', key = person id) and each identifier's group's smallest identifier where that is
-- another (kind 'canonical', key → value). Emptied by the update when it ends.
CREATE TABLE IF NOT EXISTS {db}.{local:people_work}{on_cluster}
(
    account_id String,
    version UInt64,
    kind LowCardinality(String),
    key String,
    value String
)
ENGINE = {per_shard:MergeTree}
ORDER BY (account_id, version, kind, key);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.people_work{on_cluster} AS {db}.people_work_local ENGINE = {distributed:people_work:account_id};

-- people_decisions: what an account's owner decided of two people offered as the same name:
-- `same` (one person: an edge between their anchors in every regrouping) or `apart` (not offered
-- again). Kept by anchor, so a decision outlives re-ingests and reindexes of the files. Metadata:
-- whole on every node, read with FINAL.
CREATE TABLE IF NOT EXISTS {db}.people_decisions{on_cluster}
(
    account_id String,
    a_key String,
    b_key String,
    decision LowCardinality(String),
    decided_by String,
    decided_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = {everywhere:ReplacingMergeTree(version, is_deleted)}
ORDER BY (account_id, a_key, b_key);
