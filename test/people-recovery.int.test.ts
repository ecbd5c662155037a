/**
 * An update of people cut short (the process stopped between its writes) is ended by the next
 * update of the account: forward when all its writes were made, back when not. Either way each
 * AUTHOR row is on one person once, and the people are those the rows make.
 */
import { expect, it } from 'vitest';
import type { Storage } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const { storage } = useTempStorage('people-recovery');
const ACCOUNT = 'acc-1';

/** Stages `n` rows of file `fileId`: row i gives the email of person i % 3, row 0 also an ORCID. */
function rowsOf(s: Storage, fileId: string, n: number) {
  return async (table: string, version: number) => {
    await s.client.command({
      query: `INSERT INTO ${table} (account_id, person_id, anchor, file_id, sheet, row_number, version, keys,
                name, emails, orcid)
              SELECT {a:String}, '', '', {f:String}, 'Sheet1', toUInt32(number), {v:UInt64},
                arrayConcat([concat('email:p', toString(number % 3), '@x.org')],
                  if(number = 0, ['orcid:0000-0002-1825-0097'], [])),
                concat('Person ', toString(number % 3)), [concat('p', toString(number % 3), '@x.org')],
                if(number = 0, '0000-0002-1825-0097', '')
              FROM numbers({n:UInt32})`,
      query_params: { a: ACCOUNT, f: fileId, v: version, n },
    });
  };
}

/** Each person's rows, and how many rows the table holds. */
async function state(s: Storage) {
  const rs = await s.client.query({
    query: `SELECT person_id, count(), uniqExact(file_id, sheet, row_number), groupUniqArray(version)
            FROM ${s.layout.db}.people_rows WHERE account_id = {a:String} GROUP BY person_id ORDER BY person_id`,
    query_params: { a: ACCOUNT },
    format: 'JSONCompactEachRow',
  });
  return rs.json<[string, number, number, number[]]>();
}

/** Copies the account's current people under `version`, as an update that wrote all but its deletes would have. */
async function interrupted(s: Storage, version: number, done: boolean): Promise<void> {
  const db = s.layout.db;
  for (const table of ['people_rows', 'people_keys', 'people']) {
    const rs = await s.client.query({
      query: `SELECT name FROM system.columns WHERE database = {db:String} AND table = {t:String}
              AND default_kind != 'MATERIALIZED' ORDER BY position`,
      query_params: { db: s.database, t: table },
      format: 'JSONCompactEachRow',
    });
    const columns = (await rs.json<[string]>()).map(([c]) => c);
    await s.client.command({
      query: `INSERT INTO ${db}.${table} (${columns.join(', ')})
              SELECT ${columns.map((c) => (c === 'version' ? '{v:UInt64}' : c)).join(', ')}
              FROM ${db}.${table} WHERE account_id = {a:String}`,
      query_params: { a: ACCOUNT, v: version },
    });
  }
  await s.client.command({
    query: `INSERT INTO ${db}.people_work (account_id, version, kind, key)
            SELECT DISTINCT account_id, {v:UInt64}, 'person', person_id FROM ${db}.people
            WHERE account_id = {a:String} AND version < {v:UInt64}
            UNION ALL SELECT {a:String}, {v:UInt64}, 'done', '' WHERE {done:UInt8}`,
    query_params: { a: ACCOUNT, v: version, done: done ? 1 : 0 },
  });
}

it('ends an update cut short forward when it wrote everything, back when it did not', async () => {
  const s = storage();
  await s.people.addStaged(ACCOUNT, 'file-a', rowsOf(s, 'file-a', 30));
  const before = await state(s);
  // Three people of ten rows each, each row once.
  expect(before.map(([, rows, distinct]) => [rows, distinct])).toEqual([
    [10, 10],
    [10, 10],
    [10, 10],
  ]);
  const ids = before.map(([id]) => id);
  const late = Date.now() * 1000 + 1e9;

  // All written, deletes not made: the next update (of another file) finishes it forward.
  await interrupted(s, late, true);
  expect((await state(s)).map(([, rows]) => rows)).toEqual([20, 20, 20]);
  await s.people.addStaged(ACCOUNT, 'file-b', async () => {});
  const forward = await state(s);
  expect(forward.map(([id, rows, distinct, versions]) => [id, rows, distinct, versions])).toEqual(
    ids.map((id) => [id, 10, 10, [late]]),
  );

  // Not all written: back to the people as they were.
  await interrupted(s, late + 1, false);
  await s.people.addStaged(ACCOUNT, 'file-b', async () => {});
  expect((await state(s)).map(([id, rows, , versions]) => [id, rows, versions])).toEqual(
    ids.map((id) => [id, 10, [late]]),
  );

  // Stopped while staging: nothing of it stays, and the file's rows come in with the next update.
  await expect(
    s.people.addStaged(ACCOUNT, 'file-c', async (table, version) => {
      await rowsOf(s, 'file-c', 3)(table, version);
      throw new Error('stopped');
    }),
  ).rejects.toThrow('stopped');
  await s.people.addStaged(ACCOUNT, 'file-c', rowsOf(s, 'file-c', 3));
  expect((await state(s)).map(([id, rows, distinct]) => [id, rows, distinct])).toEqual(
    ids.map((id) => [id, 11, 11]),
  );
  const people = await s.people.search(ACCOUNT, { query: '', page: 0, size: 10 });
  expect(people.total).toBe(3);
  expect(people.people.map((p) => p.entries)).toEqual([11, 11, 11]);
  // Read in batches of two by keyset: every person once, in the search's order.
  const scanned = [];
  for await (const batch of s.people.scan(ACCOUNT, { query: '' }, 2)) scanned.push(...batch);
  expect(scanned.map((p) => p.id)).toEqual(people.people.map((p) => p.id));
});
