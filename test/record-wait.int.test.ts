/**
 * Read-your-writes for the ingest worker on a replicated cluster: the API writes a file's record
 * through one replica and enqueues the job; the worker may read another replica that has not caught
 * up. fileRecord (ingest-worker) then waits for the record instead of taking the file for deleted.
 * Replication cannot run here (no Keeper), so the lagging replica is played by a record written
 * only once the job has looked for it and found nothing. A record that never arrives fails the job
 * for a retry; after the last, the file is FAILED by a record of the worker's own, which the API's
 * record, arriving late, does not turn back to PROCESSING.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { newUploadRecord, type Storage } from '@sift/clickhouse';
import { failFile, ingestFile, RECORD_UNSEEN_MESSAGE, RecordNotReplicatedError } from '@sift/ingest-worker';
import type { IngestFilePayload } from '@sift/shared/jobs';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('record_wait');

/** A stored CSV original and its (unsaved) record and job payload. */
function upload() {
  const id = randomUUID();
  const stored = `${id}.csv`;
  const bytes = Buffer.from('Name,City\nAda,Paris\nGrace,Lyon\n');
  writeFileSync(path.join(temp.dir, stored), bytes);
  const record = newUploadRecord({
    id,
    ownerId: 'o',
    originalFilename: 'people.csv',
    filename: stored,
    sizeBytes: bytes.length,
  });
  const payload: IngestFilePayload = {
    fileId: id,
    ownerId: 'o',
    storedName: stored,
    originalFilename: 'people.csv',
  };
  return { record, payload };
}

/** `storage` whose `files.get` calls `onGet` after each answer. */
function watchingGets(storage: Storage, onGet: () => void): Storage {
  const files = new Proxy(storage.files, {
    get(target, key) {
      if (key === 'get') {
        return async (...args: Parameters<Storage['files']['get']>) => {
          const answer = await target.get(...args);
          onGet();
          return answer;
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...storage, files };
}

const deps = (storage: Storage, recordWaitMs: number) => ({
  storage,
  originals: originalsIn(temp.dir),
  tmpDir: path.join(temp.dir, 'tmp'),
  recordWaitMs,
});

it('waits for a record that reaches its replica after the job looked, and ingests the file', async () => {
  const storage = temp.storage();
  const { record, payload } = upload();
  let looked!: () => void;
  const lookedOnce = new Promise<void>((resolve) => (looked = resolve));
  const ingest = ingestFile(
    deps(
      watchingGets(storage, () => looked()),
      600_000,
    ),
    payload,
  );
  await lookedOnce; // the job found no record
  await storage.files.save(record);
  const [general] = await ingest;
  expect(general).toMatchObject({ id: record.id, status: 'PROCESSED', totalRows: 2 });
});

it('takes a missing record for a deleted file when it does not wait (one node)', async () => {
  const { payload } = upload();
  expect(await ingestFile(deps(temp.storage(), 0), payload)).toEqual([]);
});

it('does not wait for a file that was deleted', async () => {
  const storage = temp.storage();
  const { record, payload } = upload();
  await storage.files.save(record);
  await storage.files.remove([record]);
  // A wait would outlast the test's own timeout.
  expect(await ingestFile(deps(storage, 600_000), payload)).toEqual([]);
});

it('fails the job for a retry when the record never arrives', async () => {
  const { payload } = upload();
  await expect(ingestFile(deps(temp.storage(), 300), payload)).rejects.toThrow(RecordNotReplicatedError);
});

/** `storage` as a replica that has not caught up sees it: no record at all (writes go through). */
function lagging(storage: Storage): Storage {
  const files = new Proxy(storage.files, {
    get(target, key) {
      if (key === 'get') return async () => null;
      if (key === 'seen') return async () => false;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...storage, files };
}

it('ends a file whose record never arrived FAILED, whenever the record arrives', async () => {
  const storage = temp.storage();
  const { record, payload } = upload();
  // The API wrote the record (this version) elsewhere; the worker's replica never saw it.
  await storage.files.save(record);
  await failFile(lagging(storage), payload, RECORD_UNSEEN_MESSAGE, { recordUnseen: true });
  // Caught up, the node holds both versions: the worker's, newer, wins.
  expect(await storage.files.get(record.id, 'o')).toMatchObject({
    id: record.id,
    ownerId: 'o',
    originalFilename: 'people.csv',
    status: 'FAILED',
    errorMessage: RECORD_UNSEEN_MESSAGE,
  });
});

it('never writes again the record of a file deleted meanwhile', async () => {
  const storage = temp.storage();
  const { record, payload } = upload();
  await storage.files.save(record);
  await storage.files.remove([record]);
  await failFile(storage, payload, RECORD_UNSEEN_MESSAGE, { recordUnseen: true });
  expect(await storage.files.get(record.id)).toBeNull();
});
