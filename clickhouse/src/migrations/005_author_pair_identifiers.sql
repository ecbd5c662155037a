-- Each author's ORCID and ResearcherID, paired from Web of Science's `ORCIDs` and `Researcher Ids`
-- cells (`Name/identifier; …`) in JavaScript and written into the AUTHOR row with its author.
ALTER TABLE {db}.{local:author_pairs}{on_cluster} ADD COLUMN IF NOT EXISTS orcid String DEFAULT '', ADD COLUMN IF NOT EXISTS researcher_id String DEFAULT '';
{if_cluster} ALTER TABLE {db}.author_pairs{on_cluster} ADD COLUMN IF NOT EXISTS orcid String DEFAULT '', ADD COLUMN IF NOT EXISTS researcher_id String DEFAULT '';
