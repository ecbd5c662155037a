/**
 * An ingest that outlasts its job's lock many times over keeps the lock (issue 33): a 4.6 MB xlsx
 * once held the process's thread so long that its lock expired, the stalled-job check handed the
 * job out again, and the file was ingested a second time while the first run still went on. Here
 * the lock lasts 1 s and the file takes several to read and load: the job is never found stalled,
 * is started once, and the file has each of its rows once.
 */
import { Queue } from 'bullmq';
import { afterAll, expect, it } from 'vitest';
import type { SearchResponse } from '@sift/shared/contracts';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import { useTwoAccounts } from './support/sift.ts';

const ROWS = 1_000_000;
// The JavaScript path: rows read in a worker thread and loaded in batches from this process.
const accounts = useTwoAccounts(['Lock', 'Keeper'], { ingestLockMs: 1_000, csvLoader: 'javascript' });
let queue: Queue | undefined;
afterAll(() => queue?.close());

it('keeps the lock of an ingest that lasts many lock durations, and ingests the file once', async () => {
  const { sift, admin } = accounts;
  const body = Array.from({ length: ROWS }, (_, i) => `Person ${i},p${i}@example.org,Dept ${i % 97}`);
  const [file] = await admin.upload([
    { name: 'long.csv', bytes: new TextEncoder().encode(`Name,Email,Department\n${body.join('\n')}\n`) },
  ]);
  const started = performance.now();
  const done = await admin.waitForIngest(file!.id, 300_000);
  expect(done.status).toBe('PROCESSED');
  expect(done.totalRows).toBe(ROWS);
  // How many lock durations the ingest lasted (about 5 here): for the note, not a pass criterion.
  console.log(
    `ingest took ${((performance.now() - started) / sift.config.ingestLockMs).toFixed(1)} lock durations`,
  );

  queue = new Queue(INGEST_QUEUE, {
    connection: { url: sift.config.redisUrl },
    prefix: sift.config.queuePrefix,
  });
  const job = (await queue.getJob(file!.id))!;
  expect(job.stalledCounter).toBe(0);
  expect(job.attemptsStarted).toBe(1);
  const all = await admin.json<SearchResponse>('/file/search', { fileIds: [file!.id], size: 1 });
  expect(all.totalRecords).toBe(ROWS);
});
