/**
 * A file deleted while its rows load stops loading at its next progress report, instead of loading
 * on to the end only for its rows to be removed then (a large file held its ingest slot for as long
 * as the whole load took). One deleted while its people are updated (the ingest's last step) takes
 * them along.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { expect, it } from 'vitest';
import { newUploadRecord } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('delete-during');
const ROWS = 600_000;

it('stops loading a file deleted while it loads, and leaves none of its rows', async () => {
  const id = randomUUID();
  const out = createWriteStream(path.join(temp.dir, id));
  out.write('Name,Title,Year\n');
  for (let i = 0; i < ROWS; i++) {
    if (!out.write(`Person ${i},"Title of paper ${i}, part one",${1990 + (i % 35)}\n`))
      await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const storage = temp.storage();
  const record = newUploadRecord({
    id,
    ownerId: 'o',
    originalFilename: 'big.csv',
    filename: id,
    sizeBytes: 1,
  });
  await storage.files.save(record);

  const load = storage.rows.loadCsvFile.bind(storage.rows);
  let inserts = 0;
  let insertsWhenDeleted: number | null = null;
  storage.rows.loadCsvFile = (params) => {
    inserts++;
    return load(params);
  };
  try {
    const written = await ingestFile(
      {
        storage,
        originals: originalsIn(temp.dir),
        tmpDir: path.join(temp.dir, 'tmp'),
        csvLoader: 'javascript',
      },
      { fileId: id, ownerId: 'o', storedName: id, originalFilename: 'big.csv' },
      async (p) => {
        // The person deletes the file once its rows have started to load.
        if (p.stage === 2 && inserts > 0 && insertsWhenDeleted === null) {
          insertsWhenDeleted = inserts;
          await storage.files.remove([(await storage.files.get(id))!]);
        }
      },
    );
    expect(written).toEqual([]);
  } finally {
    storage.rows.loadCsvFile = load;
  }
  // 30 batches in all: the load stopped within a few of the deletion, not at the end.
  expect(insertsWhenDeleted).not.toBeNull();
  expect(inserts - insertsWhenDeleted!).toBeLessThan(ROWS / 20_000 / 2);
  expect(await storage.rows.countFile(id)).toBe(0);
});

it('takes the people of a file deleted while they are updated along', async () => {
  const storage = temp.storage();
  const id = randomUUID();
  const ownerId = 'people-owner';
  const csv = [
    'Authors,Author Full Names,Article Title,Email Addresses',
    '"Kowalski, J; Sorensen, A","Kowalski, Jan; Sørensen, Anne",Paper one,jan@uni.pl; anne@dtu.dk',
    '"Kowalski, J","Kowalski, Jan",Paper two,jan@uni.pl',
  ].join('\n');
  await writeFile(path.join(temp.dir, id), `${csv}\n`);
  await storage.files.save(
    newUploadRecord({ id, ownerId, originalFilename: 'authors.csv', filename: id, sizeBytes: csv.length }),
  );
  const addFile = storage.people.addFile.bind(storage.people);
  let peopleWritten = 0;
  storage.people.addFile = async (file) => {
    // The person deletes the file while its people are being updated: the delete removes the
    // records, and finds no people of the file yet (they are written after it looked).
    const written = await addFile(file);
    await storage.files.remove([(await storage.files.get(id))!, ...(await storage.files.authorFilesOf(id))]);
    peopleWritten = written;
    return written;
  };
  try {
    const written = await ingestFile(
      { storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp'), csvLoader: 'engine' },
      { fileId: id, ownerId, storedName: id, originalFilename: 'authors.csv' },
      async () => {},
    );
    expect(written).toEqual([]);
  } finally {
    storage.people.addFile = addFile;
  }
  // Jan and Anne were people of the account until the ingest saw the file gone.
  expect(peopleWritten).toBe(2);
  expect((await storage.people.search(ownerId, { query: '', page: 0, size: 10 })).total).toBe(0);
  expect(await storage.files.list({ ownerId })).toEqual([]);
});
