-- Which rows a file's record points at: `rows.file_id` of its rows, '' for the file's own id. A
-- reindex loads a file's rows again under its other id (`{id}.2`, then back to `{id}`) while the
-- searches go on reading the rows the record points at, then switches the record over and removes
-- the old rows, so no search ever misses the file (files.repository.ts, rowsIdOf).
ALTER TABLE {db}.files{on_cluster} ADD COLUMN IF NOT EXISTS rows_id String DEFAULT '';
