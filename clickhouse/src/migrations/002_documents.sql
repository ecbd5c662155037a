-- Small per-account records kept as JSON documents: export history (kind 'export') and saved
-- search queries (kind 'query'). ReplacingMergeTree(version, is_deleted), read with FINAL.
CREATE TABLE IF NOT EXISTS {db}.documents{on_cluster}
(
    kind LowCardinality(String),
    id String,
    owner_id String,
    created_at DateTime64(3, 'UTC'),
    body String,
    version UInt64,
    is_deleted UInt8 DEFAULT 0
)
ENGINE = {everywhere:ReplacingMergeTree(version, is_deleted)}
ORDER BY (kind, owner_id, id);
