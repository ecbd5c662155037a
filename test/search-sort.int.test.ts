/**
 * Sorting search results on the engine (`sortBy`, `sortOrder`): by one column's value in English
 * collation across files, blank cells last either way, pages consistent with the order, the
 * criteria still applied; an unknown column (the spec's Authors form sends `createdAt`) keeps the
 * file order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { FileRecord, SearchResponse } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;
let files: FileRecord[];

const csv = (text: string) => new TextEncoder().encode(text);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Sam', 'Sorter');
  const uploaded = await user.upload([
    { name: 'a.csv', bytes: csv('Name,City\nZoë,Oslo\nadam,Paris\n,Lima\nÉmile,Nice\n') },
    { name: 'b.csv', bytes: csv('Name,Year\nBob,2001\nbob,1999\nzed,2020\n') },
  ]);
  files = await Promise.all(uploaded.map((f) => user.waitForIngest(f.id)));
});
afterAll(async () => {
  await sift?.close();
});

const names = (r: SearchResponse) => r.data.map((row) => row.Name);
const search = (body: object) =>
  user.json<SearchResponse>('/file/search', { fileIds: files.map((f) => f.id), ...body });

it('sorts by a column across files, blank cells last, in both directions', async () => {
  expect(names(await search({ sortBy: 'Name', sortOrder: 'asc', size: 50 }))).toEqual([
    'adam',
    'bob',
    'Bob',
    'Émile',
    'zed',
    'Zoë',
    '',
  ]);
  expect(names(await search({ sortBy: 'Name', sortOrder: 'desc', size: 50 }))).toEqual([
    'Zoë',
    'zed',
    'Émile',
    'Bob',
    'bob',
    'adam',
    '',
  ]);
});

it('pages through the sorted rows, with the criteria applied', async () => {
  const pages = await Promise.all([0, 1].map((page) => search({ sortBy: 'Name', page, size: 3 })));
  expect(pages.map(names)).toEqual([
    ['adam', 'bob', 'Bob'],
    ['Émile', 'zed', 'Zoë'],
  ]);
  const filtered = await search({ sortBy: 'Name', sortOrder: 'desc', searchCriteria: { Name: 'b' } });
  expect(names(filtered)).toEqual(['Bob', 'bob']);
  expect(filtered.totalRecords).toBe(2);
  // A column only one file has: the other file's rows are blank there, so they come last.
  expect(names(await search({ sortBy: 'Year', size: 50 })).slice(0, 3)).toEqual(['bob', 'Bob', 'zed']);
});

it('keeps file, sheet and row order without a sort or for a column no file has', async () => {
  const unsorted = names(await search({ size: 50 }));
  const rowsOf: Record<string, string[]> = {
    'a.csv': ['Zoë', 'adam', '', 'Émile'],
    'b.csv': ['Bob', 'bob', 'zed'],
  };
  const byId = [...files].sort((x, y) => (x.id < y.id ? -1 : 1));
  expect(unsorted).toEqual(byId.flatMap((f) => rowsOf[f.originalFilename]!));
  expect(names(await search({ sortBy: 'createdAt', sortOrder: 'desc', size: 50 }))).toEqual(unsorted);
  const refused = await user.sendJson('/file/search', { sortBy: 'Name', sortOrder: 'sideways' });
  expect(refused.status).toBe(400);
});
