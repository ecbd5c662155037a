-- Metadata tables are ReplacingMergeTree(version, is_deleted), read with FINAL: an update is a new
-- row with a higher version, a delete a row with is_deleted = 1. Placeholders (migrations.ts) lay
-- the tables out on one node or a cluster: metadata whole on every node, rows sharded by file.
CREATE TABLE IF NOT EXISTS {db}.accounts{on_cluster}
(
    id String,
    email String,
    first_name String,
    last_name String,
    active UInt8,
    onboarded UInt8,
    created_at DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = {everywhere:ReplacingMergeTree(version, is_deleted)}
ORDER BY id;

CREATE TABLE IF NOT EXISTS {db}.files{on_cluster}
(
    id String,
    owner_id String,
    original_filename String,
    filename String,
    file_type LowCardinality(String),
    status LowCardinality(String),
    error_message String,
    total_rows UInt64,
    total_columns UInt32,
    column_names Array(String),
    sheet_names Array(String),
    -- JSON object: header name -> physical column of `rows` ('' = kept in the overflow map `extra`).
    column_map String,
    size_bytes UInt64,
    source_file_id String,
    upload_date DateTime64(3, 'UTC'),
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = {everywhere:ReplacingMergeTree(version, is_deleted)}
ORDER BY (owner_id, id);

-- Searchable rows of every file. Each distinct header gets a physical String column `c_<hash>`
-- (added at ingest with ADD COLUMN IF NOT EXISTS); headers past the column guard go to `extra`.
-- On a cluster they are stored in `rows_local` on every shard and read through `rows`.
CREATE TABLE IF NOT EXISTS {db}.{local:rows}{on_cluster}
(
    file_id String,
    sheet LowCardinality(String),
    row_number UInt32,
    extra Map(String, String)
)
ENGINE = {per_shard:MergeTree}
ORDER BY (file_id, sheet, row_number);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.rows{on_cluster} AS {db}.rows_local ENGINE = {distributed:rows};
