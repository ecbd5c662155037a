/**
 * Each upload is validated once. The api validates it at upload and passes the format it found in
 * the job payload; the worker then reads the file without validating it again. Without a format (a
 * re-ingest of a stored original) the worker validates it itself.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUploadRecord, type Storage } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import type { IngestFilePayload } from '@sift/shared/jobs';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('validate_once');
let storage: Storage;
beforeAll(() => {
  storage = temp.storage();
});

/** Stores `text` under a name whose extension the validation refuses, and records the file. */
async function storeUnsupportedName(): Promise<Omit<IngestFilePayload, 'format'>> {
  const id = randomUUID();
  const storedName = `${id}.bin`;
  const text = 'Name,Email\nAda,ada@example.com\n';
  writeFileSync(path.join(temp.dir, storedName), text);
  const originalFilename = 'contacts.pdf';
  await storage.files.save(
    newUploadRecord({ id, ownerId: 'o', originalFilename, filename: storedName, sizeBytes: text.length }),
  );
  return { fileId: id, ownerId: 'o', storedName, originalFilename };
}

const deps = () => ({ storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp') });

describe('validation at ingest', () => {
  it('trusts the format the api validated', async () => {
    const payload = await storeUnsupportedName();
    const [file] = await ingestFile(deps(), { ...payload, format: 'csv' });
    expect(file).toMatchObject({ status: 'PROCESSED', totalRows: 1, columnNames: ['Name', 'Email'] });
  });

  it('validates a file whose payload carries no format', async () => {
    const payload = await storeUnsupportedName();
    await expect(ingestFile(deps(), payload)).rejects.toThrow(
      '"contacts.pdf" is not a supported file type. Please upload Excel (.xlsx, .xls) or CSV files.',
    );
  });
});
