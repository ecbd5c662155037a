/**
 * Files left PROCESSING after their ingest ended (issue 33): when the engine's disk filled during
 * an ingest, marking the file FAILED failed too, and the file stayed PROCESSING for good. A sweep
 * (real chDB, real Redis) marks FAILED a GENERAL file no job holds in two sweeps running, with its
 * last failed job's reason when there is one; a file a job still holds is left alone.
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newUploadRecord, type FileRow } from '@sift/clickhouse';
import { STRANDED_MESSAGE, StrandedFiles } from '@sift/ingest-worker';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('stranded');
const connection = { url: 'redis://127.0.0.1:6379' };
const prefix = `sift-test-stranded-${randomUUID()}`;
let queue: Queue;

beforeAll(() => {
  queue = new Queue(INGEST_QUEUE, { connection, prefix });
});
afterAll(async () => {
  await queue.obliterate({ force: true });
  await queue.close();
});

/** A GENERAL file's record, PROCESSING. */
async function processing(name: string): Promise<FileRow> {
  const file = newUploadRecord({
    id: randomUUID(),
    ownerId: 'owner',
    originalFilename: name,
    filename: `${randomUUID()}.csv`,
    sizeBytes: 10,
  });
  await temp.storage().files.save(file);
  return file;
}

const payload = (file: FileRow) => ({
  fileId: file.id,
  ownerId: file.ownerId,
  storedName: file.filename,
  originalFilename: file.originalFilename,
});

const statusOf = async (file: FileRow) => {
  const f = await temp.storage().files.get(file.id);
  return [f!.status, f!.errorMessage];
};

it('fails a file no job holds in two sweeps running, with its failed job’s reason, and leaves a held one', async () => {
  const storage = temp.storage();
  const orphan = await processing('orphan.csv');
  const held = await processing('held.csv');
  const diskFull = await processing('disk-full.csv');
  await queue.add('ingest-file', payload(held), { jobId: held.id });
  // The last try of this file's job failed on a full disk, and so did marking it FAILED.
  await queue.add('ingest-file', payload(diskFull), { jobId: diskFull.id, attempts: 1 });
  const worker = new Worker(
    INGEST_QUEUE,
    async (job) => {
      if (job.data.fileId !== diskFull.id) throw new Error('not this job');
      throw new Error(
        'Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)',
      );
    },
    { connection, prefix, autorun: false },
  );
  const failed = new Promise((resolve) => worker.on('failed', resolve));
  // Only the disk-full job runs: the held file's job is queued again once the worker is gone.
  await queue.remove(held.id);
  void worker.run();
  await failed;
  await worker.close();
  await queue.add('ingest-file', payload(held), { jobId: `${held.id}:reingest:1` });

  const sweeps = new StrandedFiles(storage, queue);
  // The first sweep only suspects: a file is recorded a moment before its job is queued.
  expect(await sweeps.sweep()).toEqual([]);
  expect(await statusOf(orphan)).toEqual(['PROCESSING', '']);
  expect((await sweeps.sweep()).sort()).toEqual([orphan.id, diskFull.id].sort());
  expect(await statusOf(orphan)).toEqual(['FAILED', STRANDED_MESSAGE]);
  expect((await statusOf(diskFull))[1]).toMatch(/run out of storage space/);
  expect(await statusOf(held)).toEqual(['PROCESSING', '']);
  // A file whose job appears between two sweeps is not failed.
  const late = await processing('late.csv');
  expect(await sweeps.sweep()).toEqual([]);
  await queue.add('ingest-file', payload(late), { jobId: late.id });
  expect(await sweeps.sweep()).toEqual([]);
  expect(await statusOf(late)).toEqual(['PROCESSING', '']);
});
