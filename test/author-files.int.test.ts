/**
 * The AUTHOR files API (`/api/file/preprocessed/*`): listing with sort and status, statistics, and
 * deleting one AUTHOR file without touching its GENERAL source; other ids answer 404.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import {
  ROW_META,
  type AuthorFileStatistics,
  type FileRecord,
  type SearchResponse,
} from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;
let sources: FileRecord[];

const csv = (lines: string[]) => new TextEncoder().encode(`${lines.join('\n')}\n`);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Pre', 'Files');
  const uploaded = [];
  // One at a time, so upload dates (createdAt) are strictly ordered.
  for (const [name, lines] of [
    ['two-authors.csv', ['Authors,Email Addresses', '"Kim, J; Okafor, N",jkim@uni.edu']],
    [
      'three-authors.csv',
      ['Authors,Email Addresses', '"Kim, J; Okafor, N; Silva, P",', '"Rossi, A",ar@x.it'],
    ],
    ['plain.csv', ['Name', 'Ada']],
  ] as const) {
    const [f] = await user.upload([{ name, bytes: csv([...lines]) }]);
    uploaded.push(await user.waitForIngest(f!.id));
  }
  sources = uploaded;
});
afterAll(async () => {
  await sift?.close();
});

it('lists AUTHOR files newest first, sorted and filtered on request, with statistics', async () => {
  const list = await user.json<FileRecord[]>('/file/preprocessed');
  expect(list.map((f) => [f.fileType, f.totalRows])).toEqual([
    ['AUTHOR', 4],
    ['AUTHOR', 2],
  ]);
  expect(list.map((f) => f.sourceFileId)).toEqual([sources[1]!.id, sources[0]!.id]);
  const byRows = await user.json<FileRecord[]>('/file/preprocessed?sortBy=totalRows&sortOrder=asc');
  expect(byRows.map((f) => f.totalRows)).toEqual([2, 4]);
  expect((await user.json<FileRecord[]>('/file/preprocessed/status/PROCESSED')).length).toBe(2);
  expect(await user.json<FileRecord[]>('/file/preprocessed/status/FAILED')).toEqual([]);
  expect((await user.fetch('/file/preprocessed?sortBy=nonsense')).status).toBe(400);

  const stats = await user.json<AuthorFileStatistics>('/file/preprocessed/statistics');
  expect(stats).toEqual({
    totalFiles: 2,
    processedFiles: 2,
    failedFiles: 0,
    totalRows: 6,
    lastCreatedAt: list[0]!.uploadDate,
  });
});

it('gives each Authors result the row of the uploaded file its record is on', async () => {
  const found = (await user.json<SearchResponse>('/file/preprocessed/search', { size: 10 })).data.filter(
    (r) => r[ROW_META.fileName] === 'three-authors.csv',
  );
  // Three authors on row 2 of three-authors.csv, one on row 3; the Authors file numbers them 1-4.
  expect(found.map((r) => [r.Authors, r[ROW_META.sourceRow]])).toEqual([
    ['Kim, J', 2],
    ['Okafor, N', 2],
    ['Silva, P', 2],
    ['Rossi, A', 3],
  ]);
  expect(found.map((r) => r[ROW_META.rowNumber])).toEqual([1, 2, 3, 4]);
  // A GENERAL row has no source row of its own.
  const general = await user.json<SearchResponse>('/file/search', { fileIds: [sources[1]!.id] });
  expect(general.data.every((r) => !(ROW_META.sourceRow in r))).toBe(true);
});

it('exports where each row came from on request: file, sheet and the row in the uploaded file', async () => {
  const exported = async (body: object) => {
    const res = await user.sendJson('/file/export', { format: 'CSV', includeMetadata: true, ...body });
    expect(res.status).toBe(200);
    // Quotes left out: the engine quotes every text cell, JavaScript only those that need it.
    return (await res.text()).trim().replaceAll('"', '').split(/\r?\n/);
  };
  // The engine writes it (no pre-processing rules).
  const authors = await exported({
    fileType: 'AUTHOR',
    columns: ['Authors'],
    searchCriteria: { Authors: 'Rossi' },
  });
  expect(authors).toEqual(['File,Sheet,Row,Authors', 'three-authors.csv,three-authors,3,Rossi, A']);
  // JavaScript writes it (a pre-processing rule): the same rows.
  const split = await exported({
    fileType: 'AUTHOR',
    columns: ['Authors'],
    searchCriteria: { Authors: 'Rossi' },
    enablePreprocessing: true,
    preprocessingRules: [{ sourceColumn: 'Authors', targetColumn: 'Email Addresses' }],
  });
  expect(split).toEqual(['File,Sheet,Row,Authors', 'three-authors.csv,three-authors,3,Rossi, A']);
  const general = await exported({ columns: ['Authors'], searchCriteria: { Authors: 'Rossi' } });
  expect(general).toEqual(['File,Sheet,Row,Authors', 'three-authors.csv,three-authors,3,Rossi, A']);
});

it('deletes one AUTHOR file and keeps its source; a GENERAL id or an unknown id is 404', async () => {
  const [newest] = await user.json<FileRecord[]>('/file/preprocessed');
  expect((await user.fetch(`/file/preprocessed/${sources[2]!.id}`, { method: 'DELETE' })).status).toBe(404);
  expect((await user.fetch('/file/preprocessed/no-such-id', { method: 'DELETE' })).status).toBe(404);
  expect((await user.fetch(`/file/preprocessed/${newest!.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await user.json<FileRecord[]>('/file/preprocessed')).map((f) => f.sourceFileId)).toEqual([
    sources[0]!.id,
  ]);
  expect((await user.json<FileRecord>(`/file/files/${sources[1]!.id}`)).status).toBe('PROCESSED');
  const authors = await user.json<{ totalRecords: number }>('/file/preprocessed/search', {
    searchCriteria: { Authors: 'Silva' },
  });
  expect(authors.totalRecords).toBe(0);
});
