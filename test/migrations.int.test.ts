/**
 * Schema migrations (clickhouse/src/migrations.ts) on real chDB: a database made before
 * 003_rows_file_id_low_cardinality.sql (rows.file_id a plain String, with rows in it) is brought to
 * LowCardinality(String) by the next start-up's migrate(), and every row reads back the same.
 */
import { expect, it } from 'vitest';
import { ident, migrate } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('migrations');
const FILE_ID_MIGRATION = '003_rows_file_id_low_cardinality.sql';

it('turns rows.file_id of an older database into LowCardinality(String), keeping every row', async () => {
  const { client, database, layout } = temp.storage();
  const db = ident(database);
  const typeOfFileId = async () => {
    const rs = await client.query({
      query: `SELECT type FROM system.columns WHERE database = {database:String} AND table = 'rows' AND name = 'file_id'`,
      query_params: { database },
      format: 'JSONEachRow',
    });
    return (await rs.json<{ type: string }>())[0]?.type;
  };
  const contents = async () => {
    const rs = await client.query({
      query: `SELECT file_id, count() AS n FROM ${db}.rows WHERE file_id IN ('a', 'b') GROUP BY file_id ORDER BY file_id`,
      format: 'JSONEachRow',
    });
    return rs.json();
  };
  expect(await typeOfFileId()).toBe('LowCardinality(String)');

  // The database as an installation from before the migration has it.
  await client.command({
    query: `ALTER TABLE ${db}.rows MODIFY COLUMN file_id String`,
    clickhouse_settings: { mutations_sync: '2' },
  });
  await client.command({
    query: `ALTER TABLE ${db}.schema_migrations DELETE WHERE name = {name:String}`,
    query_params: { name: FILE_ID_MIGRATION },
    clickhouse_settings: { mutations_sync: '2' },
  });
  await client.command({
    query: `INSERT INTO ${db}.rows (file_id, sheet, row_number) SELECT if(number % 3 = 0, 'a', 'b'), 'Sheet1', toUInt32(number) FROM numbers(3000)`,
  });
  expect(await typeOfFileId()).toBe('String');
  const before = await contents();
  expect(before).toEqual([
    { file_id: 'a', n: 1000 },
    { file_id: 'b', n: 2000 },
  ]);

  expect(await migrate(client, layout)).toEqual([FILE_ID_MIGRATION]);
  expect(await typeOfFileId()).toBe('LowCardinality(String)');
  expect(await contents()).toEqual(before);
  expect(await migrate(client, layout)).toEqual([]);
});
