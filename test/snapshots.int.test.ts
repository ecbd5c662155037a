/**
 * Snapshots and restore (Admin): a snapshot taken before a mass delete brings back exactly
 * that state — accounts, file records, originals, searchable rows, export history — checked by
 * counts, the search results, the stored files and a byte-for-byte export download; what was added
 * after the snapshot is gone; a second restore while one runs answers 409; the audit log keeps
 * everything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  Account,
  AuditEntry,
  ExportHistoryEntry,
  FileRecord,
  Page,
  RestoreResult,
  Snapshot,
  SystemStats,
} from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { ApiClient, searchView, siftWithData } from './support/sift.ts';

let sift: RunningSift;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  ({ sift, admin, user } = await siftWithData(
    { email: 'sam@example.org', firstName: 'Sam', lastName: 'Saved' },
    [
      { name: 'savedrecs.xls', bytes: readFileSync(fixture('wos-savedrecs-small.xls')) },
      { name: 'people.csv', bytes: new TextEncoder().encode('Name,City\nMüller,Berlin\nSmith,London\n') },
    ],
  ));
});
afterAll(async () => {
  await sift?.close();
});

const blobs = () => readdirSync(path.join(sift.config.dataDir, 'blobs')).sort();
const download = async (id: string) =>
  Buffer.from(await (await user.fetch(`/file/exports/${id}/download`)).arrayBuffer());

/** Everything the restore must bring back, as the API and the disk show it. */
async function state() {
  const stats = await admin.json<SystemStats>('/admin/system/stats');
  const exports = await user.json<ExportHistoryEntry[]>('/file/exports');
  return {
    counts: { accounts: stats.accounts, files: stats.files, rows: stats.rows, exports: stats.exports },
    files: (await user.json<FileRecord[]>('/file/files')).map((f) => [f.id, f.status, f.totalRows]).sort(),
    search: await searchView(user),
    exports: exports.map((e) => [e.id, e.exportFilename, e.rowCount]),
    exportBytes: await Promise.all(exports.map((e) => download(e.id))),
    blobs: blobs(),
  };
}

it('restores exactly the state of a snapshot taken before a mass delete', async () => {
  await (
    await user.fetch('/file/export', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'CSV', searchCriteria: { City: 'london' } }),
    })
  ).arrayBuffer();
  const before = await state();
  expect(before.counts).toMatchObject({ accounts: 2, files: 3, exports: 1 });
  expect(before.search.general.total).toBeGreaterThan(2);
  expect(before.blobs.length).toBe(2);

  const created = await admin.fetch('/admin/restore/snapshots', { method: 'POST' });
  expect(created.status).toBe(201);
  const snapshot = (await created.json()) as Snapshot;
  expect(snapshot).toMatchObject({ ...before.counts, originals: 2, createdBy: 'admin@example.com' });
  expect(snapshot.sizeBytes).toBeGreaterThan(0);
  expect((await admin.json<Snapshot[]>('/admin/restore/snapshots')).map((s) => s.id)).toEqual([snapshot.id]);

  // Everything goes: files, rows, exports; then a new account and a new upload arrive.
  const deleted = await admin.fetch('/admin/mass-delete-all-files', {
    method: 'DELETE',
    headers: { 'x-confirm': 'DELETE ALL' },
  });
  expect(deleted.status).toBe(200);
  const late = await ApiClient.approved(sift, admin, 'late@example.org', 'Lee', 'Late');
  const [added] = await user.upload([{ name: 'late.csv', bytes: new TextEncoder().encode('Name\nLater\n') }]);
  expect((await user.waitForIngest(added!.id)).status).toBe('PROCESSED');
  expect((await admin.json<SystemStats>('/admin/system/stats')).accounts).toBe(3);

  // Two restores at once: one runs, the other is refused.
  const restore = () =>
    admin.fetch('/admin/restore/execute', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confirm': 'DELETE ALL' },
      body: JSON.stringify({ snapshotId: snapshot.id }),
    });
  const answers = await Promise.all([restore(), restore()]);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  const result = (await answers.find((r) => r.status === 200)!.json()) as RestoreResult;
  expect(result).toMatchObject({
    snapshotId: snapshot.id,
    accountsRestored: 2,
    filesRestored: 3,
    rowsRestored: before.counts.rows,
    exportsRestored: 1,
    originalsRestored: 2,
  });

  expect(await state()).toEqual(before);
  // The account made after the snapshot is gone: signing in again, it waits for approval anew.
  expect((await late.fetch('/file/files')).status).toBe(403);
  // The restored installation keeps working: a new upload is ingested and searchable.
  const [again] = await user.upload([
    { name: 'again.csv', bytes: new TextEncoder().encode('Name\nAgain\n') },
  ]);
  expect((await user.waitForIngest(again!.id)).status).toBe('PROCESSED');
  expect((await admin.json<SystemStats>('/admin/system/stats')).rows).toBe(before.counts.rows + 1);

  const audit = await admin.json<Page<AuditEntry>>('/admin/audit?size=100');
  const actions = audit.content.map((e) => e.action);
  for (const a of ['snapshot.restore', 'snapshot.create', 'maintenance.mass-delete-all-files'])
    expect(actions).toContain(a);
});

it('answers 404 for an unknown snapshot, 400 without one, and 403 to non-administrators', async () => {
  const post = (client: ApiClient, body: unknown) =>
    client.fetch('/admin/restore/execute', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-confirm': 'DELETE ALL' },
      body: JSON.stringify(body),
    });
  expect((await post(admin, { snapshotId: '2020-01-01T00-00-00-000Z-abcdef' })).status).toBe(404);
  expect((await post(admin, { snapshotId: '../../etc' })).status).toBe(404);
  expect((await post(admin, {})).status).toBe(400);
  expect((await post(user, { snapshotId: 'x' })).status).toBe(403);
  const unconfirmed = await admin.fetch('/admin/restore/execute', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ snapshotId: 'x' }),
  });
  expect(unconfirmed.status).toBe(409);
  expect((await user.fetch('/admin/restore/snapshots')).status).toBe(403);
  expect((await admin.json<Account>('/accounts/me')).email).toBe('admin@example.com');
});
