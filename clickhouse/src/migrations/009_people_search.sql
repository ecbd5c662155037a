-- What People searches read, made smaller (docs/benchmarks.md, "People at scale"):
-- * the domains of each person's emails (`@uni-heidelberg.de`): a search by domain reads this
--   short column (a bloom filter skipping the granules without the domain) instead of every
--   person's folded text (282.8 ms → 106.5 ms p50 for 20,000 of 1M people);
-- * countries and journals as LowCardinality: the facets read every granule holding a person found,
--   and dictionary indexes are read instead of the strings (84.6 ms → 37.5 ms for the facets of
--   20,000 of 1M people, 111.3 ms → 75.4 ms for 200,000).
ALTER TABLE {db}.{local:people}{on_cluster} ADD COLUMN IF NOT EXISTS domains Array(String) MATERIALIZED arrayDistinct(arrayMap(e -> substring(e.1, position(e.1, '@')), emails)), ADD INDEX IF NOT EXISTS domains_index domains TYPE bloom_filter GRANULARITY 1, MODIFY COLUMN journals Array(LowCardinality(String)), MODIFY COLUMN countries Array(LowCardinality(String));
{if_cluster} ALTER TABLE {db}.people{on_cluster} ADD COLUMN IF NOT EXISTS domains Array(String) MATERIALIZED arrayDistinct(arrayMap(e -> substring(e.1, position(e.1, '@')), emails)), MODIFY COLUMN journals Array(LowCardinality(String)), MODIFY COLUMN countries Array(LowCardinality(String));
