/**
 * Sift with its originals and exports in an S3-compatible bucket (s3rver): uploads end up in the
 * bucket byte for byte and not on the local disk, ingest reads them from there, kept exports are
 * stored and downloaded from there, and deleting, maintenance and statistics act on the bucket.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { exportKey, originalKey, S3Store } from '@sift/object-store';
import type {
  DeletionResult,
  ExportHistoryEntry,
  SearchResponse,
  SystemStats,
  UploadMultipleResponse,
} from '@sift/shared/contracts';
import { startTestS3, type TestS3 } from './support/s3.ts';
import { ApiClient, startTestSift } from './support/sift.ts';
import { waitFor } from './support/wait.ts';

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

it('stores an upload in the bucket while it arrives, and keeps nothing of a file it refuses', async () => {
  // More than one part of a multipart upload (8 MiB), sent in two halves: the request is held
  // open after the first 9 MiB until a part of the file has reached the bucket.
  let csv = 'Name,City\n';
  for (let i = 0; csv.length < 10 * 2 ** 20; i++) csv += `Arriving person ${i},City ${i % 7}\n`;
  const bytes = Buffer.from(csv);
  const boundary = 'sift-arrival-boundary';
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="arriving.csv"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    );
    for (let at = 0; at < 9 * 2 ** 20; at += 65_536) yield bytes.subarray(at, at + 65_536);
    await released;
    yield bytes.subarray(9 * 2 ** 20);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const answer = admin.fetch('/file/upload-multiple', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const sent = s3.requests().length;
  await waitFor(
    async () => s3.requests().slice(sent),
    (seen) => seen.some((r) => r.startsWith('PUT ') && /[?&]partNumber=1(&|$)/.test(r)),
    { what: "the upload's first part in the bucket" },
  );
  release();
  const res = await answer;
  expect(res.status).toBe(201);
  const [file] = ((await res.json()) as UploadMultipleResponse).files;
  expect((await bytesOf(await bucket.read(originalKey(file!.filename)))).equals(bytes)).toBe(true);
  expect(readdirSync(path.join(sift.config.dataDir, 'tmp', 'uploads'))).toEqual([]);
  expect((await admin.waitForIngest(file!.id)).status).toBe('PROCESSED');

  // A file whose content is not what its name says fails alone; its copy does not stay.
  const before = await bucket.list('blobs/');
  const [refused] = await admin.upload([
    { name: 'not-a-workbook.xlsx', bytes: new TextEncoder().encode('plain text, not a zip') },
  ]);
  expect(refused!.status).toBe('FAILED');
  // Its copy reached the bucket as it arrived (a copy still on its way cannot hide), then went.
  await waitFor(
    async () => s3.requests(),
    (seen) => seen.some((r) => r.startsWith('PUT ') && r.includes(refused!.filename)),
    { what: "the refused file's copy" },
  );
  expect((await bucket.list('blobs/')).sort()).toEqual(before.sort());
  expect(readdirSync(path.join(sift.config.dataDir, 'tmp', 'uploads'))).toEqual([]);
  for (const id of [file!.id, refused!.id])
    expect((await admin.fetch(`/file/files/${id}`, { method: 'DELETE' })).status).toBe(204);
});

it('refuses a file over the size limit and keeps nothing of it in the bucket', async () => {
  // A limit above one part (8 MiB): the file's first part is in the bucket when the limit is hit.
  const small = await startTestSift({ s3: s3.options, maxUploadBytes: 9 * 2 ** 20 });
  try {
    const user = await ApiClient.onboarded(small.url, 'admin@example.com', 'Sam', 'Limit');
    const before = await bucket.list('blobs/');
    const sent = s3.requests().length;
    const res = await user.postUpload([
      { name: 'too-large.csv', bytes: new Uint8Array(10 * 2 ** 20).fill(65) },
    ]);
    expect(res.status).toBe(413);
    // Every multipart upload the file started has ended (completed or aborted) before the bucket
    // is read, so a copy still finishing cannot hide: one was started, as the file arrived.
    const multipart = (seen: string[]) => ({
      started: seen.filter((r) => /^POST .*[?&]uploads(=|&|$)/.test(r)).length,
      ended: seen.filter((r) => /^(POST|DELETE) .*[?&]uploadId=/.test(r)).length,
    });
    const seen = await waitFor(
      async () => multipart(s3.requests().slice(sent)),
      (m) => m.started > 0 && m.ended === m.started,
      { what: "the file's multipart upload to end" },
    );
    expect(seen.started).toBe(1);
    expect((await bucket.list('blobs/')).sort()).toEqual(before.sort());
    expect(readdirSync(path.join(small.config.dataDir, 'tmp', 'uploads'))).toEqual([]);
  } finally {
    await small.close();
  }
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
