/**
 * The test-only two-shard cluster (test/support/clickhouse-cluster.ts) behaves as the cluster layout
 * needs: a Distributed table over per-shard local tables keeps all of a key's rows on one shard and
 * reads every shard; DELETE through the Distributed table is refused, so deletes must go to the
 * local tables of every shard.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from './support/clickhouse-cluster.ts';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster(2);
});
afterAll(async () => {
  await cluster?.stop();
});

/** Runs `sql` on shard `i` (0-based); resolves with its text answer, rejects with the server's error. */
async function on(i: number, sql: string): Promise<string> {
  const res = await fetch(`${cluster.shards[i]!.url}/`, {
    method: 'POST',
    body: sql,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.headers.get('x-clickhouse-exception-code')}: ${text}`);
  return text.trim();
}

it('lists both shards as the cluster sift', async () => {
  const shards = await on(
    0,
    "SELECT shard_num FROM system.clusters WHERE cluster = 'sift' ORDER BY shard_num",
  );
  expect(shards.split('\n')).toEqual(['1', '2']);
});

it('keeps each file on one shard through a Distributed table, and reads them all', async () => {
  for (const i of [0, 1]) {
    await on(
      i,
      'CREATE TABLE default.rows_local (file_id String, n UInt32) ENGINE = MergeTree ORDER BY (file_id, n)',
    );
  }
  await on(
    0,
    'CREATE TABLE default.rows AS default.rows_local ENGINE = Distributed(sift, default, rows_local, cityHash64(file_id))',
  );
  await on(
    0,
    `INSERT INTO default.rows SELECT concat('file-', toString(number % 8)), toUInt32(number) FROM numbers(8000)
     SETTINGS distributed_foreground_insert = 1`,
  );
  expect(await on(0, 'SELECT count() FROM default.rows')).toBe('8000');
  const perShard = [];
  for (const i of [0, 1]) {
    const files = await on(
      i,
      'SELECT file_id, count() FROM default.rows_local GROUP BY file_id ORDER BY file_id',
    );
    perShard.push(files ? files.split('\n').map((line) => line.split('\t')) : []);
  }
  // Every file on exactly one shard, whole; both shards used.
  const all = perShard.flat();
  expect(all.map(([file]) => file).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `file-${i}`));
  expect(all.every(([, n]) => n === '1000')).toBe(true);
  expect(perShard.every((files) => files.length > 0)).toBe(true);

  await expect(on(0, "DELETE FROM default.rows WHERE file_id = 'file-0'")).rejects.toThrow(/^36:/);
  for (const i of [0, 1]) await on(i, "DELETE FROM default.rows_local WHERE file_id = 'file-0'");
  expect(await on(0, 'SELECT count() FROM default.rows')).toBe('7000');
});
