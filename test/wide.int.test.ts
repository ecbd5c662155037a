/**
 * Very wide sheets: past the physical-column guards (the table's, and what one file may add),
 * headers overflow into the `extra` map and stay searchable and exportable; merged cells keep
 * their value in the top-left cell.
 */
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { FileRecord, SearchResponse } from '@sift/shared/contracts';
import { ident, MAX_NEW_COLUMNS_PER_FILE, MAX_PHYSICAL_COLUMNS, physicalColumnName } from '@sift/clickhouse';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Wendy', 'Wide');
});
afterAll(async () => {
  await sift?.close();
});
// Each test's files go after it: an account's files share MAX_PHYSICAL_COLUMNS_PER_ACCOUNT.
afterEach(async () => {
  for (const f of await user.json<FileRecord[]>('/file/files'))
    if (f.fileType === 'GENERAL') await user.fetch(`/file/files/${f.id}`, { method: 'DELETE' });
});

it('keeps every column of a sheet wider than the column guard, searchable', async () => {
  const width = MAX_PHYSICAL_COLUMNS + 100;
  const headers = Array.from({ length: width }, (_, i) => `Field ${i + 1}`);
  const row = (r: number) => headers.map((_, i) => `r${r}c${i + 1}`);
  const csv = [headers, row(1), row(2)].map((cells) => cells.join(',')).join('\n');
  const [uploaded] = await user.upload([{ name: 'wide.csv', bytes: new TextEncoder().encode(csv) }]);
  const file = await user.waitForIngest(uploaded!.id);
  expect(file).toMatchObject({ status: 'PROCESSED', totalRows: 2, totalColumns: width });
  expect(file.columnNames).toEqual(headers);

  const last = `Field ${width}`;
  const res = await user.json<SearchResponse>('/file/search', { searchCriteria: { [last]: `r2c${width}` } });
  expect(res.totalRecords).toBe(1);
  expect(res.data[0]).toMatchObject({ 'Field 1': 'r2c1', [last]: `r2c${width}` });

  const exported = await user.sendJson('/file/export', {
    searchCriteria: {},
    format: 'CSV',
    columns: ['Field 1', last],
  });
  expect(
    (await exported.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n'),
  ).toEqual([`"Field 1","${last}"`, `"r1c1","r1c${width}"`, `"r2c1","r2c${width}"`]);
});

/** Physical columns of the test's `rows` table. */
async function physicalColumns(): Promise<number> {
  const rs = await sift.storage.client.query({
    query: `SELECT count() AS n FROM system.columns WHERE database = {db:String} AND table = 'rows' AND startsWith(name, 'c_')`,
    query_params: { db: sift.config.clickhouseDatabase },
    format: 'JSONEachRow',
  });
  return Number((await rs.json<{ n: string }>())[0]!.n);
}

it('adds at most its share of physical columns for one file; the rest overflow, searchable', async () => {
  const before = await physicalColumns();
  const width = MAX_NEW_COLUMNS_PER_FILE + 50;
  const headers = Array.from({ length: width }, (_, i) => `Share ${i + 1}`);
  const csv = [headers, headers.map((_, i) => `s${i + 1}`)].map((cells) => cells.join(',')).join('\n');
  const [uploaded] = await user.upload([{ name: 'share.csv', bytes: new TextEncoder().encode(csv) }]);
  expect(await user.waitForIngest(uploaded!.id)).toMatchObject({ status: 'PROCESSED', totalColumns: width });
  expect((await physicalColumns()) - before).toBe(MAX_NEW_COLUMNS_PER_FILE);
  const res = await user.json<SearchResponse>('/file/search', {
    searchCriteria: { [`Share ${width}`]: `s${width}` },
  });
  expect(res.totalRecords).toBe(1);
});

it('keeps a merged cell’s value in its top-left cell', async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Merged');
  ws.addRow(['Region', 'Q1', 'Q2']);
  ws.addRow(['North', 10, 20]);
  ws.addRow(['', 30, 40]);
  ws.mergeCells('A2:A3');
  const [uploaded] = await user.upload([
    { name: 'merged.xlsx', bytes: new Uint8Array(await wb.xlsx.writeBuffer()) },
  ]);
  const file = await user.waitForIngest(uploaded!.id);
  const res = await user.json<SearchResponse>('/file/search', { fileIds: [file.id] });
  expect(res.data.map((r) => [r.Region, r.Q1, r.Q2])).toEqual([
    ['North', '10', '20'],
    ['', '30', '40'],
  ]);
});

it('adds a column again that was taken away behind its back (a restore in another process)', async () => {
  const csv = new TextEncoder().encode('Vanishing Header\nfirst\n');
  const [one] = await user.upload([{ name: 'one.csv', bytes: csv }]);
  expect((await user.waitForIngest(one!.id)).status).toBe('PROCESSED');
  // What a restore elsewhere does to this process's table: the column is gone.
  await sift.storage.rows.deleteFiles([one!.id]);
  await sift.storage.client.command({
    query: `ALTER TABLE ${ident(sift.storage.database)}.rows DROP COLUMN ${physicalColumnName('Vanishing Header')}`,
  });
  const [two] = await user.upload([
    { name: 'two.csv', bytes: new TextEncoder().encode('Vanishing Header\nsecond\n') },
  ]);
  expect(await user.waitForIngest(two!.id)).toMatchObject({ status: 'PROCESSED', totalRows: 1 });
  const res = await user.json<SearchResponse>('/file/search', {
    searchCriteria: { 'Vanishing Header': 'second' },
  });
  expect(res.totalRecords).toBe(1);
});
