/**
 * Sift with its originals and exports in an S3-compatible bucket (s3rver): uploads end up in the
 * bucket byte for byte and not on the local disk, ingest reads them from there, kept exports are
 * stored and downloaded from there, and deleting, maintenance and statistics act on the bucket.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { exportKey, originalKey, S3Store } from '@sift/object-store';
import type { DeletionResult, ExportHistoryEntry, SearchResponse, SystemStats } from '@sift/shared/contracts';
import { startTestS3, type TestS3 } from './support/s3.ts';
import { ApiClient, startTestSift } from './support/sift.ts';

let s3: TestS3;
let bucket: S3Store;
let sift: RunningSift;
let admin: ApiClient;

beforeAll(async () => {
  s3 = await startTestS3('sift-objects', 'tenant/');
  bucket = new S3Store(s3.options);
  sift = await startTestSift({ s3: s3.options });
  admin = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Sam', 'Three');
});
afterAll(async () => {
  await sift?.close();
  await s3?.stop();
});

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const CSV = `Name,City\n${Array.from({ length: 2000 }, (_, i) => `Person ${i},City ${i % 7}`).join('\n')}\n`;

it('keeps originals in the bucket, ingests them from there, and deletes them there', async () => {
  const bytes = new TextEncoder().encode(CSV);
  const [uploaded] = await admin.upload([{ name: 'people.csv', bytes }]);
  const file = await admin.waitForIngest(uploaded!.id);
  expect(file).toMatchObject({ status: 'PROCESSED', totalRows: 2000 });

  const stored = await bucket.read(originalKey(file.filename));
  expect((await bytesOf(stored)).equals(Buffer.from(bytes))).toBe(true);
  const localBlobs = path.join(sift.config.dataDir, 'blobs');
  expect(existsSync(localBlobs) ? readdirSync(localBlobs) : []).not.toContain(file.filename);
  expect(readdirSync(path.join(sift.config.dataDir, 'tmp', 'uploads'))).toEqual([]);

  const found = await admin.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'Person 1999' } });
  expect(found.totalRecords).toBe(1);

  const stats = await admin.json<SystemStats>('/admin/system/stats');
  expect(stats.storage.originalsBytes).toBe(bytes.length);

  expect((await admin.fetch(`/file/files/${file.id}`, { method: 'DELETE' })).status).toBe(204);
  expect(await bucket.size(originalKey(file.filename))).toBeNull();
});

it('keeps exports in the bucket and serves their downloads from there', async () => {
  const [uploaded] = await admin.upload([{ name: 'again.csv', bytes: new TextEncoder().encode(CSV) }]);
  expect((await admin.waitForIngest(uploaded!.id)).status).toBe('PROCESSED');
  const res = await admin.sendJson('/file/export', { searchCriteria: { City: 'City 3' }, format: 'CSV' });
  expect(res.status).toBe(200);
  const streamed = Buffer.from(await res.arrayBuffer());
  const [entry] = await admin.json<ExportHistoryEntry[]>('/file/exports');
  const key = exportKey(`${entry!.id}.csv`);
  expect(await bucket.size(key)).toBe(streamed.length);

  const download = await admin.fetch(`/file/exports/${entry!.id}/download`);
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer()).equals(streamed)).toBe(true);

  expect((await admin.fetch(`/file/exports/${entry!.id}`, { method: 'DELETE' })).status).toBe(204);
  expect(await bucket.size(key)).toBeNull();
});

it('reindexes from the originals in the bucket, and deletes every original there', async () => {
  await admin.fetch('/admin/clear-clickhouse', {
    method: 'DELETE',
    ...(await admin.confirmed('clear-clickhouse')),
  });
  const reindex = await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' });
  expect(reindex.status).toBe(200);
  await admin.waitForReindex();
  const [file] = await admin.json<{ id: string; filename: string }[]>('/file/files');
  expect((await admin.waitForIngest(file!.id)).status).toBe('PROCESSED');
  expect((await admin.json<SearchResponse>('/file/search', { size: 1 })).totalRecords).toBe(2000);

  const deleted = (await (
    await admin.fetch('/admin/delete-files', { method: 'DELETE', ...(await admin.confirmed('delete-files')) })
  ).json()) as DeletionResult;
  expect(deleted.filesDeleted).toBe(1);
  expect(await bucket.usage('blobs/')).toEqual({ objects: 0, bytes: 0 });
});
