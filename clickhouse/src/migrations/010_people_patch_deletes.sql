-- The people tables keep each row's block number and offset, so an update's deletes of the older
-- versions of the people it regrouped can be written as patch parts (ClickHouse's lightweight
-- updates, `lightweight_delete_mode = 'lightweight_update'`): written at once instead of a mutation
-- of every part holding such rows, which waits behind the merges of the rows just written
-- (people.repository.ts; docs/benchmarks.md, "People"). Rows written before keep working.
ALTER TABLE {db}.{local:people_rows}{on_cluster} MODIFY SETTING enable_block_number_column = 1, enable_block_offset_column = 1;
ALTER TABLE {db}.{local:people_keys}{on_cluster} MODIFY SETTING enable_block_number_column = 1, enable_block_offset_column = 1;
ALTER TABLE {db}.{local:people}{on_cluster} MODIFY SETTING enable_block_number_column = 1, enable_block_offset_column = 1;
ALTER TABLE {db}.{local:people_work}{on_cluster} MODIFY SETTING enable_block_number_column = 1, enable_block_offset_column = 1;
