/**
 * Admin maintenance: clearing ClickHouse and reindexing from the stored originals brings
 * search back exactly; mass delete needs a confirmation of it, issued for the typed "DELETE ALL",
 * good once and for the files as they were (409 and nothing deleted otherwise), and then
 * removes every file, row, original, export and upload session; each call reports the spec's
 * deletion-result fields.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  DeletionResult,
  FileRecord,
  SearchResponse,
  SystemStats,
  UploadSession,
} from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { searchView, siftWithData, type ApiClient } from './support/sift.ts';

const FIXTURE = fixture('wos-savedrecs-small.xls');
let sift: RunningSift;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  ({ sift, admin, user } = await siftWithData(
    { email: 'mia@example.org', firstName: 'Mia', lastName: 'Maintained' },
    [
      { name: 'savedrecs.xls', bytes: readFileSync(FIXTURE) },
      { name: 'people.csv', bytes: new TextEncoder().encode('Name,City\nMüller,Berlin\nSmith,London\n') },
    ],
  ));
});
afterAll(async () => {
  await sift?.close();
});

const maintain = (p: string, init: RequestInit = {}) =>
  admin.fetch(`/admin/${p}`, { method: 'DELETE', ...init });

const snapshot = () => searchView(user);

it('clears ClickHouse, then reindexes from the originals to exactly the same search results', async () => {
  const before = await snapshot();
  expect(before.general.total).toBeGreaterThan(2);
  expect(before.authors.total).toBeGreaterThan(0);
  const stats = await admin.json<SystemStats>('/admin/system/stats');

  // Every destructive call needs the confirmation text; without it nothing changes.
  for (const call of [
    'clear-clickhouse',
    'delete-files',
    'delete-file-data',
    'delete-export-history',
    'clear-upload-tracking',
  ]) {
    const refused = await maintain(call);
    expect(refused.status, call).toBe(409);
    expect(((await refused.json()) as { code: string }).code, call).toBe('CONFIRMATION_REQUIRED');
  }
  expect(await snapshot()).toEqual(before);

  const cleared = (await (
    await maintain('clear-clickhouse', await admin.confirmed('clear-clickhouse'))
  ).json()) as DeletionResult;
  expect(cleared).toMatchObject({
    fileDataRecordsDeleted: stats.rows,
    clickHouseCollectionsCleared: 1,
    fileRecordsDeleted: 0,
    clickHouseError: null,
  });
  expect(cleared.totalRecordsDeleted).toBe(stats.rows);
  expect((await user.json<SearchResponse>('/file/search', {})).totalRecords).toBe(0);

  const res = await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' });
  const reindexed = (await res.json()) as DeletionResult;
  expect(reindexed.clickHouseReindexed).toBe(2);
  // The files stay PROCESSED while they wait their turn: the Reindex session says when all are read.
  await user.waitForReindex();
  const files = await user.json<FileRecord[]>('/file/files');
  for (const f of files.filter((x) => x.fileType === 'GENERAL')) {
    expect((await user.waitForIngest(f.id)).status).toBe('PROCESSED');
  }
  expect(await snapshot()).toEqual(before);
  const sessions = await user.json<UploadSession[]>('/upload-tracking/sessions');
  // The two reindexed files and, as with any upload, the AUTHOR file derived again.
  expect(sessions.find((s) => s.sessionName === 'Reindex')).toMatchObject({
    totalFiles: 3,
    completedFiles: 3,
    isCompleted: true,
  });
});

it('mass-deletes only with a confirmation of it, good once and for the files confirmed, then leaves nothing behind', async () => {
  await (await user.sendJson('/file/export', { format: 'CSV' })).arrayBuffer();
  const files = await user.json<FileRecord[]>('/file/files');
  expect(files.length).toBe(3); // two uploads and the AUTHOR file
  const code = async (res: Response) => ((await res.json()) as { code: string }).code;

  // The phrase alone no longer deletes: it could be replayed.
  const attempts: RequestInit[] = [
    {},
    { headers: { 'x-confirm': 'DELETE ALL' } },
    { headers: { 'content-type': 'application/json' }, body: '{"confirmation":"DELETE ALL"}' },
  ];
  for (const init of attempts) {
    const refused = await maintain('mass-delete-all-files', init);
    expect(refused.status).toBe(409);
    expect(await code(refused)).toBe('CONFIRMATION_REQUIRED');
  }
  // A confirmation needs the typed phrase, and one of another call confirms only that.
  const mistyped = await admin.sendJson('/admin/confirmations', {
    action: 'mass-delete-all-files',
    phrase: 'delete all',
  });
  expect(mistyped.status).toBe(409);
  expect(((await mistyped.json()) as { error: string }).error).toMatch(
    /^Mass deletion cancelled - confirmation text did not match/,
  );
  const other = await maintain('mass-delete-all-files', await admin.confirmed('delete-export-history'));
  expect(await code(other)).toBe('CONFIRMATION_MISMATCH');
  // A file uploaded after the confirmation: the files are not those confirmed, nothing goes.
  const early = await admin.confirmed('mass-delete-all-files');
  const [late] = await user.upload([{ name: 'late.csv', bytes: new TextEncoder().encode('Name\nLate\n') }]);
  await user.waitForIngest(late!.id);
  const changed = await maintain('mass-delete-all-files', early);
  expect(changed.status).toBe(409);
  expect(await code(changed)).toBe('SELECTION_CHANGED');
  expect((await user.json<FileRecord[]>('/file/files')).length).toBe(4);
  expect((await user.fetch(`/file/files/${late!.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await user.json<FileRecord[]>('/file/files')).length).toBe(3);
  // Not an administrator: refused whatever it carries.
  expect(
    (
      await user.fetch('/admin/mass-delete-all-files', {
        method: 'DELETE',
        ...(await admin.confirmed('mass-delete-all-files')),
      })
    ).status,
  ).toBe(403);

  const confirmation = await admin.confirmed('mass-delete-all-files');
  const done = (await (await maintain('mass-delete-all-files', confirmation)).json()) as DeletionResult;
  // The same confirmation again (a replay) deletes nothing more.
  const replayed = await maintain('mass-delete-all-files', confirmation);
  expect(replayed.status).toBe(409);
  expect(await code(replayed)).toBe('CONFIRMATION_REQUIRED');
  expect(done).toMatchObject({
    filesDeleted: 2,
    fileRecordsDeleted: 3,
    exportHistoryRecordsDeleted: 1,
    clickHouseCollectionsCleared: 1,
    clickHouseError: null,
    uploadTrackingError: null,
  });
  expect(done.uploadTrackingDataCleared).toBeGreaterThanOrEqual(2);
  expect(done.totalRecordsDeleted).toBe(done.fileDataRecordsDeleted + 3 + 1);
  expect(done.durationMs).toEqual(expect.any(Number));
  expect(Date.parse(done.timestamp)).not.toBeNaN();

  expect(await user.json('/file/files')).toEqual([]);
  expect(await user.json('/file/exports')).toEqual([]);
  expect(await user.json('/upload-tracking/sessions')).toEqual([]);
  expect(await admin.json<SystemStats>('/admin/system/stats')).toMatchObject({
    files: 0,
    rows: 0,
    exports: 0,
  });
  expect(readdirSync(path.join(sift.config.dataDir, 'exports'))).toEqual([]);
  const blobs = readdirSync(path.join(sift.config.dataDir, 'blobs'));
  for (const f of files) if (f.filename) expect(blobs).not.toContain(f.filename);
});
