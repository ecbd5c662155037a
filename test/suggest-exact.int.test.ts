/**
 * Suggestions are an exact reading of the most frequent values within their read bound
 * (SUGGEST_LIMITS, stated in docs/api.md): on data inside the bound, RowSearch.suggest answers
 * exactly what a plain GROUP BY over every matching row answers, ties broken by value.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ident, newUploadRecord, SUGGEST_LIMITS, type FileRow } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('suggest_exact');
const ROWS = 60_000;
let files: FileRow[];
let column: string;

beforeAll(async () => {
  const storage = temp.storage();
  // A skewed spread of names over three files: 'Name 0' most often, a long tail of rare ones, ties.
  const value = `concat('Name ', toString(intDiv(number * number, 7919) % 97), if(number % 7 = 0, ' Müller', ''))`;
  const sample = await (
    await storage.client.query({ query: `SELECT ${value} FROM numbers(200)`, format: 'JSONCompactEachRow' })
  ).json<string[]>();
  const map = await storage.rows.ensureColumns(['Name'], sample);
  column = map.Name!;
  files = [0, 1, 2].map((i) => ({
    ...newUploadRecord({
      id: randomUUID(),
      ownerId: 'o',
      originalFilename: `f${i}.csv`,
      filename: '',
      sizeBytes: 0,
    }),
    status: 'PROCESSED' as const,
    columnNames: ['Name'],
    sheetNames: ['Sheet1'],
    columnMap: { Name: column },
  }));
  await storage.client.command({
    query: `INSERT INTO ${ident(storage.database)}.rows (file_id, sheet, row_number, ${ident(column)})
            SELECT {ids:Array(String)}[number % 3 + 1], 'Sheet1', toUInt32(intDiv(number, 3) + 2), ${value}
            FROM numbers(${ROWS})`,
    query_params: { ids: files.map((f) => f.id) },
  });
});

/** The top `limit` values containing `query` over every row of `of`, counted exactly. */
async function exact(of: FileRow[], query: string, limit: number): Promise<string[]> {
  const storage = temp.storage();
  const rs = await storage.client.query({
    query: `SELECT v FROM (SELECT ${ident(column)} AS v FROM ${ident(storage.database)}.rows
              WHERE file_id IN {ids:Array(String)} AND v != '' AND positionCaseInsensitiveUTF8(v, {q:String}) > 0)
            GROUP BY v ORDER BY count() DESC, v LIMIT {limit:UInt32}`,
    query_params: { ids: of.map((f) => f.id), q: query, limit },
    format: 'JSONCompactEachRow',
  });
  return (await rs.json<[string]>()).map((r) => r[0]);
}

it('answers exactly the most frequent matching values when the data is within the read bound', async () => {
  expect(ROWS).toBeLessThan(SUGGEST_LIMITS.matches); // inside the bound: nothing is cut
  const rows = temp.storage().rows;
  for (const query of ['', 'name', 'NAME 1', 'me 9', 'müll', 'MÜLLER', 'zz']) {
    for (const of of [files, files.slice(1)]) {
      const expected = await exact(of, query, 10);
      expect(await rows.suggest(of, 'Name', query, 10), `${query} over ${of.length} files`).toEqual(expected);
    }
  }
  expect((await exact(files, 'müll', 10)).length).toBeGreaterThan(0); // the comparison is not of empty lists
});
