/**
 * An update of people cut short (the process stopped between its writes) is ended by the next
 * update of the account: forward when all its writes were made, back when not. Either way each
 * AUTHOR row is on one person once, and the people are those the rows make.
 */
import { expect, it } from 'vitest';
import type { PeopleRowsSource, Storage } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const { storage } = useTempStorage('people-recovery');
const ACCOUNT = 'acc-1';

/**
 * `n` rows of file `fileId`: row i gives the email `<who><i % 3>@x.org` (row 0 of `p` also an ORCID); with
 * `failAt`, reading the titles of the rows stops at that row (as a process stopped while writing).
 */
function rowsOf(fileId: string, n: number, failAt = -1, who = 'p'): PeopleRowsSource {
  return {
    select: `SELECT {f:String} AS file_id, 'Sheet1' AS sheet, toUInt32(number) AS row_number,
               arrayConcat([concat('email:', {who:String}, toString(number % 3), '@x.org')],
                 if(number = 0 AND {who:String} = 'p', ['orcid:0000-0002-1825-0097'], [])) AS keys,
               concat('Person ', toString(number % 3)) AS name, [concat({who:String}, toString(number % 3), '@x.org')] AS emails,
               if(number = 0 AND {who:String} = 'p', '0000-0002-1825-0097', '') AS orcid, '' AS researcher_id, toUInt16(0) AS year,
               toString(throwIf(number = {failAt:Int64}, 'stopped')) AS title, '' AS journal, '' AS affiliation,
               '' AS country, CAST([], 'Array(String)') AS keywords
             FROM numbers({n:UInt32})`,
    params: { f: fileId, n, failAt, who },
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

/**
 * Copies the account's current people under `version`, as an update that wrote all but its
 * deletes would have, its working rows saying it is `done`, or not (all people touched), or only
 * `started` (no one touched).
 */
async function interrupted(s: Storage, version: number, mark: 'done' | 'touched' | 'started'): Promise<void> {
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
            SELECT {a:String}, {v:UInt64}, 'start', ''
            UNION ALL SELECT DISTINCT account_id, {v:UInt64}, 'person', person_id FROM ${db}.people
            WHERE account_id = {a:String} AND version < {v:UInt64} AND {mark:String} != 'started'
            UNION ALL SELECT {a:String}, {v:UInt64}, 'done', '' WHERE {mark:String} = 'done'`,
    query_params: { a: ACCOUNT, v: version, mark },
  });
}

it('ends an update cut short forward when it wrote everything, back when it did not', async () => {
  const s = storage();
  await s.people.addRows(ACCOUNT, 'file-a', rowsOf('file-a', 30));
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
  await interrupted(s, late, 'done');
  expect((await state(s)).map(([, rows]) => rows)).toEqual([20, 20, 20]);
  await s.people.addRows(ACCOUNT, 'file-b', rowsOf('file-b', 0));
  const forward = await state(s);
  expect(forward.map(([id, rows, distinct, versions]) => [id, rows, distinct, versions])).toEqual(
    ids.map((id) => [id, 10, 10, [late]]),
  );

  // Not all written: back to the people as they were.
  await interrupted(s, late + 1, 'touched');
  await s.people.addRows(ACCOUNT, 'file-b', rowsOf('file-b', 0));
  expect((await state(s)).map(([id, rows, , versions]) => [id, rows, versions])).toEqual(
    ids.map((id) => [id, 10, [late]]),
  );

  // Stopped while writing its rows: nothing of it stays, and the file's rows come in with the next
  // update.
  await expect(s.people.addRows(ACCOUNT, 'file-c', rowsOf('file-c', 3, 2))).rejects.toThrow('stopped');
  await s.people.addRows(ACCOUNT, 'file-c', rowsOf('file-c', 3));
  expect((await state(s)).map(([id, rows, distinct]) => [id, rows, distinct])).toEqual(
    ids.map((id) => [id, 11, 11]),
  );
  // Stopped the same way with rows of people new to the account (it touched no one), and stopped
  // when it had written its rows but marked only its start: nothing of either stays.
  await expect(s.people.addRows(ACCOUNT, 'file-d', rowsOf('file-d', 3, 1, 'q'))).rejects.toThrow('stopped');
  await interrupted(s, Date.now() * 1000 + 2e9, 'started');
  expect((await state(s)).map(([, rows]) => rows)).toEqual([22, 22, 22]);
  await s.people.addRows(ACCOUNT, 'file-e', rowsOf('file-e', 0));
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
