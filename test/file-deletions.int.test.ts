/**
 * Deleting several files in one request (issue 34): `POST /api/file/deletions` answers at once and
 * the server deletes the files to the end on its own (a browser that closes meanwhile stops
 * nothing); `GET /api/file/deletions/{id}` says how it goes. Another account's file named in it is
 * only "missing" and stays; the deleted files' rows leave every search.
 */
import { expect, it } from 'vitest';
import type { FileDeletion, FileRecord, SearchResponse } from '@sift/shared/contracts';
import { DELETION_STEP_FILES } from '@sift/api';
import { useTwoAccounts, waitFor } from './support/sift.ts';

const accounts = useTwoAccounts(['Della', 'Delete']);
const csv = (name: string, authors = false) => ({
  name,
  bytes: new TextEncoder().encode(
    authors ? `Authors,Email Addresses\n"Kim, J",jkim@uni.edu\n` : `Name\nrow of ${name}\n`,
  ),
});

it('deletes a selection of files in the server, in steps, and says how it went', async () => {
  const { admin, other } = accounts;
  const mine: FileRecord[] = [];
  // More files than one step deletes, uploaded 25 a request.
  const names = Array.from({ length: DELETION_STEP_FILES + 10 }, (_, i) => `f${i}.csv`);
  for (let at = 0; at < names.length; at += 25) {
    mine.push(...(await admin.upload(names.slice(at, at + 25).map((n) => csv(n, n === 'f0.csv')))));
  }
  for (const f of mine) expect((await admin.waitForIngest(f.id)).status).toBe('PROCESSED');
  const [theirs] = await other.upload([csv('theirs.csv')]);
  expect((await other.waitForIngest(theirs!.id)).status).toBe('PROCESSED');

  const kept = mine.slice(-3);
  const doomed = mine.slice(0, -3);
  const res = await admin.sendJson('/file/deletions', {
    ids: [...doomed.map((f) => f.id), theirs!.id, 'no-such-file', doomed[0]!.id],
  });
  expect(res.status).toBe(202);
  const started = (await res.json()) as FileDeletion;
  expect(started.total).toBe(doomed.length + 2);

  const done = await waitFor(
    () => admin.json<FileDeletion>(`/file/deletions/${started.id}`),
    (d) => d.done,
    { timeoutMs: 120_000, intervalMs: 200, what: 'the deletion to end' },
  );
  expect(done).toMatchObject({ deleted: doomed.length, missing: 2, failed: [], total: doomed.length + 2 });
  expect(done.finishedAt).not.toBeNull();

  // What is left: the three kept (f0's AUTHOR file went with it), and the other account's file.
  const left = await admin.json<FileRecord[]>('/file/files');
  expect(left.map((f) => f.id).sort()).toEqual(kept.map((f) => f.id).sort());
  expect((await other.json<FileRecord>(`/file/files/${theirs!.id}`)).status).toBe('PROCESSED');
  const rows = await admin.json<SearchResponse>('/file/search', { size: 100 });
  expect(rows.totalRecords).toBe(3);
  expect((await admin.json<SearchResponse>('/file/preprocessed/search', {})).totalRecords).toBe(0);

  // Another account cannot read it; a request naming nothing is refused.
  expect((await other.fetch(`/file/deletions/${started.id}`)).status).toBe(404);
  expect((await admin.sendJson('/file/deletions', { ids: [] })).status).toBe(400);
});
