/**
 * Upload sessions and live progress in Redis, the batch/session upload endpoints, and uploads while
 * Redis does not answer (503 quickly, nothing kept; work goes on once it answers again).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  FileRecord,
  UploadMultipleResponse,
  UploadPacing,
  UploadSession,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { startTestRedis, type TestRedis } from './support/redis.ts';
import { ApiClient, startTestSift, waitFor } from './support/sift.ts';

const FIXTURE = fixture('wos-savedrecs-small.xls');

let sift: RunningSift;
let user: ApiClient;

beforeAll(async () => {
  // Small CSV chunks, so a test-sized file loads in many steps with progress measured by chunk.
  sift = await startTestSift({ csvChunkBytes: 256 * 1024, csvLoader: 'engine-chunked' });
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Tracy', 'Tracker');
});
afterAll(async () => {
  await sift?.close();
});

function form(files: { name: string; bytes: Uint8Array | string }[], field = 'files'): FormData {
  const f = new FormData();
  for (const file of files) f.append(field, new Blob([file.bytes]), file.name);
  return f;
}

/** Every summary of session `id` seen while polling until `until` holds for one. */
async function waitForSession(
  id: string,
  until: (s: UploadSessionSummary) => boolean,
): Promise<UploadSessionSummary[]> {
  const seen: UploadSessionSummary[] = [];
  await waitFor(
    async () => {
      const summary = await user.json<UploadSessionSummary>(`/upload-tracking/sessions/${id}/summary`);
      seen.push(summary);
      return summary;
    },
    until,
    { what: `session ${id} to reach the state` },
  );
  return seen;
}

/** A CSV big enough that loading it takes seconds on this machine (~12 MB, 120k rows). */
function bigCsv(): string {
  const lines = ['Name,City,Title,Notes'];
  for (let i = 0; i < 120_000; i++)
    lines.push(`Person ${i},City ${i % 97},Title number ${i} of a long list,Some notes about row ${i}`);
  return `${lines.join('\n')}\n`;
}

describe('upload sessions', () => {
  it('tracks an upload from PENDING to COMPLETED, with its derived AUTHOR file', async () => {
    const res = await user.fetch('/file/upload-multiple', {
      method: 'POST',
      body: form([{ name: 'wos.xls', bytes: readFileSync(FIXTURE) }]),
    });
    const { sessionId, files } = (await res.json()) as UploadMultipleResponse;
    expect(res.status).toBe(201);
    const first = await user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`);
    expect(first.session).toMatchObject({
      id: sessionId,
      sessionName: 'wos.xls',
      totalFiles: 1,
      finalized: true,
    });

    const seen = await waitForSession(sessionId, (s) => s.session.isCompleted);
    const done = seen.at(-1)!;
    expect(done.session).toMatchObject({
      totalFiles: 2,
      completedFiles: 2,
      failedFiles: 0,
      progressPercentage: 100,
      isActive: false,
    });
    expect(
      done.files.map((f) => [f.fileName, f.fileType, f.status, f.progressPercentage, f.isCompleted]),
    ).toEqual([
      ['wos.xls', 'GENERAL', 'COMPLETED', 100, true],
      ['wos.xls', 'AUTHOR', 'COMPLETED', 100, true],
    ]);
    // 100% means searchable: the file is PROCESSED by then.
    expect((await user.json<FileRecord>(`/file/files/${files[0]!.id}`)).status).toBe('PROCESSED');
    const statuses = new Set(
      seen.flatMap((s) => s.files.filter((f) => f.fileType === 'GENERAL').map((f) => f.status)),
    );
    expect(
      [...statuses].every((s) => ['PENDING', 'PREPROCESSING', 'PROCESSING', 'COMPLETED'].includes(s)),
    ).toBe(true);
  });

  it('moves progress while a big file loads and reaches 100 only when it is searchable', async () => {
    const res = await user.fetch('/parallel/upload-single', {
      method: 'POST',
      body: form([{ name: 'big.csv', bytes: bigCsv() }], 'file'),
    });
    expect(res.status).toBe(201);
    const { sessionId, file } = (await res.json()) as { sessionId: string; file: FileRecord };
    const seen = await waitForSession(sessionId, (s) => s.session.isCompleted);
    const percents = seen.map((s) => s.files[0]!.progressPercentage);
    const during = [...new Set(percents.filter((p) => p > 0 && p < 100))];
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b)); // never goes back
    const loading = seen.map((s) => s.files[0]!).find((f) => f.currentStage === 2 && f.stageProgress > 0)!;
    expect(loading).toMatchObject({
      status: 'PROCESSING',
      totalStages: 4,
      stageDescription: 'Reading and loading rows',
    });
    expect((await user.json<FileRecord>(`/file/files/${file.id}`)).totalRows).toBe(120_000);
  });

  it('collects batches in an explicit session until it is finalized', async () => {
    const created = await user.json<{ session: UploadSession }>('/parallel/upload-session', {
      sessionName: 'Monday exports',
    });
    const id = created.session.id;
    expect(created.session).toMatchObject({
      sessionName: 'Monday exports',
      totalFiles: 0,
      finalized: false,
      isActive: true,
    });
    for (const name of ['a.csv', 'b.csv']) {
      const res = await user.fetch(`/parallel/upload-batch/${id}`, {
        method: 'POST',
        body: form([{ name, bytes: 'X\n1\n' }]),
      });
      expect(res.status).toBe(201);
    }
    // Every file done, but more may come: still active.
    const waiting = await waitForSession(id, (s) => s.files.every((f) => f.status === 'COMPLETED'));
    expect(waiting.at(-1)!.session).toMatchObject({
      totalFiles: 2,
      completedFiles: 2,
      isCompleted: false,
      isActive: true,
    });
    expect((await user.json<UploadSession[]>('/upload-tracking/sessions/active')).map((s) => s.id)).toContain(
      id,
    );

    const finalized = await user.json<UploadSessionSummary>(`/parallel/upload-finalize/${id}`, {});
    expect(finalized.session).toMatchObject({ isCompleted: true, isActive: false, finalized: true });
    const late = await user.fetch(`/parallel/upload-batch/${id}`, {
      method: 'POST',
      body: form([{ name: 'c.csv', bytes: 'X\n1\n' }]),
    });
    expect(late.status).toBe(409);
    expect(
      (await user.json<UploadSession[]>('/upload-tracking/sessions/active')).map((s) => s.id),
    ).not.toContain(id);
    expect(
      (await user.json<{ fileName: string }[]>(`/upload-tracking/sessions/${id}/files`)).map(
        (f) => f.fileName,
      ),
    ).toEqual(['a.csv', 'b.csv']);
  });

  it('counts the files a paced upload announced, not only those sent so far', async () => {
    const created = await user.json<{ session: UploadSession }>('/parallel/upload-session', {
      sessionName: 'Paced',
      expectedFiles: 3,
    });
    const id = created.session.id;
    expect(created.session).toMatchObject({ totalFiles: 3, progressPercentage: 0 });
    const res = await user.fetch(`/parallel/upload-batch/${id}`, {
      method: 'POST',
      body: form([{ name: 'first.csv', bytes: 'X\n1\n' }]),
    });
    expect(res.status).toBe(201);
    // The first file is done; two are still to come: 1 of 3, a third of the way.
    const seen = await waitForSession(id, (s) => s.files.every((f) => f.status === 'COMPLETED'));
    expect(seen.at(-1)!.session).toMatchObject({
      totalFiles: 3,
      completedFiles: 1,
      isCompleted: false,
      isActive: true,
    });
    expect(seen.at(-1)!.session.progressPercentage).toBeCloseTo(100 / 3, 0);
    // The client gave up on the other two: once finalized, the session is what it received.
    const finalized = await user.json<UploadSessionSummary>(`/parallel/upload-finalize/${id}`, {});
    expect(finalized.session).toMatchObject({ totalFiles: 1, completedFiles: 1, isCompleted: true });
    const refused = await user.sendJson('/parallel/upload-session', { expectedFiles: 0 });
    expect(refused.status).toBe(400);
  });

  it('keeps sessions to their owner, tells clients how to pace uploads, and cleans up', async () => {
    const sessions = await user.json<UploadSession[]>('/upload-tracking/sessions');
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    // Another account (activated by the admin) sees none of them.
    const stranger = await ApiClient.approved(sift, user, 'stranger@example.org', 'Stan', 'Stranger');
    expect((await stranger.fetch(`/upload-tracking/sessions/${sessions[0]!.id}`)).status).toBe(404);
    expect(await stranger.json('/upload-tracking/sessions')).toEqual([]);

    const pacing = await user.json<UploadPacing>('/parallel/optimal-batch-size');
    expect(pacing).toEqual({
      batchSize: 2,
      maxFilesPerRequest: 25,
      maxFileSizeBytes: sift.config.maxUploadBytes,
    });

    expect(await user.json('/upload-tracking/cleanup?daysOld=1', undefined, 'DELETE')).toEqual({
      sessionsRemoved: 0,
    });
    expect(await user.json('/upload-tracking/cleanup?daysOld=0', undefined, 'DELETE')).toEqual({
      sessionsRemoved: sessions.length,
    });
    expect(await user.json('/upload-tracking/sessions')).toEqual([]);
    expect((await user.fetch(`/upload-tracking/sessions/${sessions[0]!.id}/summary`)).status).toBe(404);
  });
});

describe('Redis not answering', () => {
  let redis: TestRedis;
  let own: RunningSift;

  beforeAll(async () => {
    redis = await startTestRedis();
    own = await startTestSift({ redisUrl: redis.url });
  });
  afterAll(async () => {
    redis?.child.kill('SIGCONT');
    await own?.close();
    await redis?.stop();
  });

  it('answers uploads with 503 quickly and keeps nothing; works again once Redis answers', async () => {
    const client = await ApiClient.onboarded(own.url, 'admin@example.com', 'Ops', 'Person');
    const blobs = path.join(own.config.dataDir, 'blobs');
    const before = readdirSync(blobs).length;

    redis.child.kill('SIGSTOP'); // Redis hangs: connections stay open, nothing answers
    // Fails fast: were the upload left waiting on Redis, the test would time out instead.
    const res = await client.fetch('/file/upload-multiple', {
      method: 'POST',
      body: form([{ name: 'x.csv', bytes: 'A\n1\n' }]),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error:
        'Uploads are paused because the processing queue is not reachable. Please try again in a moment.',
      code: 'QUEUE_UNAVAILABLE',
    });
    expect(readdirSync(blobs).length).toBe(before);
    expect(await client.json<FileRecord[]>('/file/files')).toEqual([]);

    redis.child.kill('SIGCONT');
    const [file] = await client.upload([{ name: 'y.csv', bytes: new TextEncoder().encode('A\n1\n') }]);
    expect((await client.waitForIngest(file!.id)).status).toBe('PROCESSED');
  });
});
