/**
 * A worker killed in the middle of a file: the job is picked up again by the next process and the
 * file ends PROCESSED with exactly its rows (no duplicates, nothing partial), searchable once. A
 * worker stopped with SIGTERM finishes the file it has before it exits, or, past its shutdown
 * deadline, hands the job back to the queue untouched and exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import type { FileRecord, SearchResponse, UploadSessionSummary } from '@sift/shared/contracts';
import { ApiClient, freePort, waitFor } from './support/sift.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROWS = 200_000;
const children: ChildProcess[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-crash-'));

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts Sift in a child process and resolves with it once it serves. */
function startChild(overrides: Record<string, unknown>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/sift-process.ts', JSON.stringify(overrides)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('READY ')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`Sift exited early (${code})`)));
  });
}

function csv(): string {
  const lines = ['Name,City,Title,Notes'];
  for (let i = 0; i < ROWS; i++)
    lines.push(`Person ${i},City ${i % 97},Title number ${i} of a long list,Notes ${i}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Configuration of a fresh Sift for one test: a free port, its own database and queue prefix (named
 * after `name`), the shared data directory, no web app; `extra` on top.
 */
async function freshSift(name: string, extra: Record<string, unknown> = {}) {
  const port = await freePort();
  const id = randomUUID().replaceAll('-', '');
  return {
    port,
    dataDir,
    clickhouseDatabase: `${name}_${id}`,
    queuePrefix: `sift-${name}-${id}`,
    webDir: undefined,
    ...extra,
  };
}

it('re-ingests a file from scratch after its worker was killed mid-load', async () => {
  const overrides = await freshSift('crash', {
    ingestLockMs: 3000,
    csvChunkBytes: 256 * 1024, // many small loads, so the kill lands between two of them
    csvLoader: 'engine-chunked',
  });
  const first = await startChild(overrides);
  const url = `http://localhost:${overrides.port}`;
  const user = await ApiClient.onboarded(url, 'admin@example.com', 'Kim', 'Killer');

  const [uploaded] = await user.upload([{ name: 'many.csv', bytes: new TextEncoder().encode(csv()) }]);
  const sessionId = (await user.json<UploadSessionSummary[]>('/upload-tracking/sessions/summary'))[0]!.session
    .id;
  // Kill the process once rows are being loaded.
  const loading = await waitFor(
    () => user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`),
    (s) =>
      s.files[0]!.status === 'COMPLETED' ||
      (s.files[0]!.currentStage === 2 && s.files[0]!.stageProgress >= 10),
    { intervalMs: 50, what: 'rows to be loading' },
  );
  expect(loading.files[0]!.status).not.toBe('COMPLETED');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));

  await startChild(overrides);
  const file = await user.waitForIngest(uploaded!.id, 120_000);
  expect(file).toMatchObject({ status: 'PROCESSED', totalRows: ROWS });
  const all = await user.json<SearchResponse>('/file/search', { size: 1 });
  expect(all.totalRecords).toBe(ROWS);
  const one = await user.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'Person 123456' } });
  expect(one.data.map((r) => r.Name)).toEqual(['Person 123456']);
  expect((await user.json<FileRecord[]>('/file/files')).map((f) => f.status)).toEqual(['PROCESSED']);
});

/** chDB allows one process per data directory: stops the previous test's processes. */
async function stopChildren(): Promise<void> {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    }
  }
}

/**
 * Starts a fresh Sift (its own database and queue; `extra` overrides), uploads the many-row CSV and
 * sends SIGTERM once its rows are loading; resolves when the process has exited (with code 0).
 */
async function stopWhileLoading(name: string, extra: Record<string, unknown> = {}) {
  await stopChildren();
  const overrides = await freshSift(name, {
    csvChunkBytes: 256 * 1024,
    csvLoader: 'engine-chunked',
    ...extra,
  });
  const child = await startChild(overrides);
  const user = await ApiClient.onboarded(
    `http://localhost:${overrides.port}`,
    'admin@example.com',
    'Tess',
    'Term',
  );
  const [uploaded] = await user.upload([{ name: 'many.csv', bytes: new TextEncoder().encode(csv()) }]);
  const sessionId = (await user.json<UploadSessionSummary[]>('/upload-tracking/sessions/summary'))[0]!.session
    .id;
  await waitFor(
    () => user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`),
    (s) => s.files[0]!.currentStage === 2,
    { intervalMs: 50, what: 'rows to be loading' },
  );
  child.kill('SIGTERM');
  // Its own exit, not a signal's (the signal is named when one ends it).
  const exit = await new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  expect(exit).toEqual({ code: 0, signal: null });
  return { overrides, user, fileId: uploaded!.id };
}

it('finishes the file in hand when stopped with SIGTERM', async () => {
  const { overrides, user, fileId } = await stopWhileLoading('term');

  // Nothing was left for another worker: the file is complete already.
  await startChild(overrides);
  const file = await user.json<FileRecord>(`/file/files/${fileId}`);
  expect(file).toMatchObject({ status: 'PROCESSED', totalRows: ROWS });
  expect((await user.json<SearchResponse>('/file/search', { size: 1 })).totalRecords).toBe(ROWS);
});

it('hands the file in hand back to the queue when stopping outlasts its deadline', async () => {
  const { overrides, user, fileId } = await stopWhileLoading('handback', { shutdownTimeoutMs: 0 });

  // Handed back, not failed and not left to expire: waiting, with no attempt spent.
  const queue = new Queue(INGEST_QUEUE, {
    connection: { url: 'redis://127.0.0.1:6379' },
    prefix: overrides.queuePrefix,
  });
  try {
    // Waiting for its turn: BullMQ keeps a job with a priority (every job's) as 'prioritized'.
    expect(await queue.getJobCounts('wait', 'prioritized', 'active', 'failed', 'delayed')).toEqual({
      wait: 0,
      prioritized: 1,
      active: 0,
      failed: 0,
      delayed: 0,
    });
    expect((await queue.getJob(fileId))?.attemptsMade).toBe(0);
  } finally {
    await queue.close();
  }

  await startChild({ ...overrides, shutdownTimeoutMs: 30_000 });
  const file = await user.waitForIngest(fileId, 120_000);
  expect(file).toMatchObject({ status: 'PROCESSED', totalRows: ROWS });
  expect((await user.json<SearchResponse>('/file/search', { size: 1 })).totalRecords).toBe(ROWS);
});

it('resumes at the AUTHOR stage after its worker was killed there: the GENERAL rows load once', async () => {
  await stopChildren();
  const overrides = await freshSift('resume', {
    ingestLockMs: 3000,
    authorJoinRunRows: 2_000, // many joins, so the kill lands inside the AUTHOR stage
  });
  const { port } = overrides;
  const authorRows = 60_000;
  const lines = ['Title,Authors,Email Addresses'];
  for (let i = 0; i < authorRows; i++)
    lines.push(`Paper ${i},"Kowalski, A${i}; Nowak, B${i}",a${i}@uni.pl; b${i}@uni.pl`);
  const first = await startChild(overrides);
  const user = await ApiClient.onboarded(`http://localhost:${port}`, 'admin@example.com', 'Rhea', 'Resume');
  const [uploaded] = await user.upload([
    { name: 'authors.csv', bytes: new TextEncoder().encode(`${lines.join('\n')}\n`) },
  ]);
  const sessionId = (await user.json<UploadSessionSummary[]>('/upload-tracking/sessions/summary'))[0]!.session
    .id;
  const summary = () => user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`);
  const deriving = await waitFor(
    summary,
    (s) => s.files[0]!.status === 'COMPLETED' || s.files[0]!.currentStage === 3,
    { intervalMs: 20, what: 'the AUTHOR stage' },
  );
  expect(deriving.files[0]!.status).not.toBe('COMPLETED');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));

  // The next worker takes the job over once its lock expires. Watched all the way: the GENERAL file
  // stays searchable with all its rows, and the stage that loads rows (2) is never reported again.
  await startChild(overrides);
  const seen = new Set<number>();
  const done = await waitFor(
    async () => {
      const [s, general] = await Promise.all([
        summary(),
        user.json<FileRecord>(`/file/files/${uploaded!.id}`),
      ]);
      expect(general.status).toBe('PROCESSED');
      const entry = s.files.find((f) => f.fileId === uploaded!.id)!;
      if (entry.status !== 'COMPLETED') seen.add(entry.currentStage);
      return { s, entry };
    },
    ({ entry }) => entry.status === 'COMPLETED',
    { intervalMs: 20, timeoutMs: 120_000, what: 'the file to complete' },
  );
  expect([...seen].filter((stage) => stage < 3)).toEqual([]);
  expect(done.s.files.map((f) => [f.fileType, f.status]).sort()).toEqual([
    ['AUTHOR', 'COMPLETED'],
    ['GENERAL', 'COMPLETED'],
  ]);
  expect((await user.json<SearchResponse>('/file/search', { size: 1 })).totalRecords).toBe(authorRows);
  const authors = await user.json<SearchResponse>('/file/preprocessed/search', { size: 1 });
  expect(authors.totalRecords).toBe(2 * authorRows); // every author once: the killed run's rows removed
  const one = await user.json<SearchResponse>('/file/preprocessed/search', {
    searchCriteria: { 'Email Addresses': 'b4321@uni.pl' },
  });
  expect(one.data.map((r) => r.Authors)).toEqual(['Nowak, B4321']);
});
