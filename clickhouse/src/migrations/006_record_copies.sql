-- Rows that are copies of one record (the same DOI or database id, see rows/record-key.ts) among
-- one owner's files of one type: every row of a record found in two files, or twice in one. An
-- ingest lists the new file's copies and those they copy; a search shows each record once by
-- leaving out every copy but the newest upload's (rows/copies.ts). A listed row whose copies are
-- gone hides nothing, so a file's entries go only with its rows. ReplacingMergeTree: a row listed
-- by two ingests collapses to one.
CREATE TABLE IF NOT EXISTS {db}.{local:record_copies}{on_cluster}
(
    file_id String,
    sheet String,
    row_number UInt32,
    record_key String
)
ENGINE = {per_shard:ReplacingMergeTree}
ORDER BY (file_id, sheet, row_number);

{if_cluster} CREATE TABLE IF NOT EXISTS {db}.record_copies{on_cluster} AS {db}.record_copies_local ENGINE = {distributed:record_copies};
