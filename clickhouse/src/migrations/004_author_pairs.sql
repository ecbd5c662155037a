-- Authors paired with emails while an AUTHOR file is derived: computed in JavaScript from the
-- GENERAL file's author columns only, then joined with its rows by the engine, which writes the
-- AUTHOR rows (every other column copied as it is). `file_id` is the GENERAL file's, so on a
-- cluster the pairs live on the shard of the rows they join. A derivation drops its partition
-- when it ends.
CREATE TABLE IF NOT EXISTS {db}.{local:author_pairs}{on_cluster}
(
    file_id String,
    sheet String,
    source_row UInt32,
    row_number UInt32,
    author String,
    full_name String,
    email String,
    email_match String
)
ENGINE = {per_shard:MergeTree}
PARTITION BY file_id
ORDER BY (sheet, source_row);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.author_pairs{on_cluster} AS {db}.author_pairs_local ENGINE = {distributed:author_pairs};
