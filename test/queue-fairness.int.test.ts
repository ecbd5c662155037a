/**
 * Fair scheduling between accounts (issue 33): one account's many queued files do not hold another
 * account's file behind all of them. Files are queued with no worker running, then a worker (two
 * jobs at a time) starts on the real BullMQ queue: the other account's one file is among the first
 * two jobs started, though it was queued last.
 */
import { Queue } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import { loadWorkerConfig, startIngestRuntime, type IngestRuntime } from '@sift/ingest-worker';
import type { AdminQueueView, SystemStats } from '@sift/shared/contracts';
import { INGEST_QUEUE, oldestWaitingMs } from '@sift/shared/jobs';
import { useTwoAccounts } from './support/sift.ts';

const accounts = useTwoAccounts(['Busy', 'Uploader'], { runWorker: false });
let runtime: IngestRuntime | undefined;
let queue: Queue | undefined;
afterAll(async () => {
  await runtime?.close();
  await queue?.close();
});

const csv = (name: string) => ({ name, bytes: new TextEncoder().encode(`Name\n${name}\n`) });

it("starts another account's file before the rest of one account's queued files", async () => {
  const { sift, admin, other } = accounts;
  const many = await admin.upload(['a1.csv', 'a2.csv', 'a3.csv', 'a4.csv', 'a5.csv'].map(csv));
  const [one] = await other.upload([csv('b1.csv')]);
  // The administrators' statistics count them all as waiting (BullMQ's 'prioritized' state).
  expect((await admin.json<SystemStats>('/admin/system/stats')).queue.waiting).toBe(6);
  // The queue view lists them in the order they will be taken, each with its owner.
  const view = await admin.json<AdminQueueView>('/admin/queue');
  expect(view.counts).toEqual({ waiting: 6, active: 0, delayed: 0, failed: 0 });
  expect(view.jobs.map((j) => [j.state, j.fileName, j.ownerEmail])).toEqual([
    ['waiting', 'a1.csv', 'admin@example.com'],
    ['waiting', 'b1.csv', 'other@example.com'],
    ...['a2.csv', 'a3.csv', 'a4.csv', 'a5.csv'].map((name) => ['waiting', name, 'admin@example.com']),
  ]);
  expect(view.jobs[0]).toMatchObject({ id: many[0]!.id, fileId: many[0]!.id, attemptsMade: 0, attempts: 3 });
  expect(view.jobs.every((j) => j.startedAt === null && j.stage === null && j.processedBy === null)).toBe(
    true,
  );
  expect(view.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);
  expect((await admin.json<AdminQueueView>('/admin/queue?limit=2')).jobs).toHaveLength(2);
  expect((await admin.fetch('/admin/queue?limit=0')).status).toBe(400);
  expect((await other.fetch('/admin/queue')).status).toBe(403);

  const config = loadWorkerConfig({
    DATA_DIR: sift.config.dataDir,
    CLICKHOUSE_DATABASE: sift.config.clickhouseDatabase,
    REDIS_URL: sift.config.redisUrl,
  });
  runtime = await startIngestRuntime({
    config: { ...config, queuePrefix: sift.config.queuePrefix },
    storage: sift.storage,
  });
  for (const f of many) expect((await admin.waitForIngest(f.id)).status).toBe('PROCESSED');
  expect((await other.waitForIngest(one!.id)).status).toBe('PROCESSED');

  queue = new Queue(INGEST_QUEUE, {
    connection: { url: sift.config.redisUrl },
    prefix: sift.config.queuePrefix,
  });
  const startedAt = async (id: string) => (await queue!.getJob(id))!.processedOn!;
  const others = await startedAt(one!.id);
  const before = (await Promise.all(many.map((f) => startedAt(f.id)))).filter((t) => t < others);
  // First come first served, all five would have started before it.
  expect(before.length).toBeLessThan(2);
  // Done, they leave the view (completed jobs are not listed).
  const after = await admin.json<AdminQueueView>('/admin/queue');
  expect(after).toMatchObject({ counts: { waiting: 0, active: 0 }, jobs: [], oldestWaitingSeconds: null });
});

it('ages the queue by the job queued first, though another goes first by turn', async () => {
  const { sift } = accounts;
  const own = new Queue(`${INGEST_QUEUE}-oldest`, {
    connection: { url: sift.config.redisUrl },
    prefix: sift.config.queuePrefix,
  });
  try {
    // Queued a minute ago, but a late turn; then a first turn, now: that one is taken first.
    await own.add('ingest-file', {}, { priority: 5, timestamp: Date.now() - 60_000 });
    await own.add('ingest-file', {}, { priority: 1 });
    const [next] = await own.getJobs(['prioritized'], 0, 0, true);
    expect(next!.opts.priority).toBe(1);
    expect(await oldestWaitingMs(own)).toBeGreaterThanOrEqual(60_000);
    await own.obliterate({ force: true });
    expect(await oldestWaitingMs(own)).toBeNull();
  } finally {
    await own.close();
  }
});
