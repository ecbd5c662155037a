/**
 * A workbook whose rows skip numbers (3, 5, 7, …: blank rows left out, or a tool that numbers rows
 * so) loads in full insert batches, each row under its own number. A batch used to end at every
 * gap, so such a file became one insert a row (1.5–20 rows/s: a 762 KB file held an ingest slot for
 * hours).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { newUploadRecord } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('sparse');
const ROWS = 3_000;

it('loads rows numbered 3, 5, 7, … in full batches under their own numbers', async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sparse');
  ws.getRow(1).values = ['Name', 'Index'];
  for (let i = 0; i < ROWS; i++) ws.getRow(3 + 2 * i).values = [`Person ${i}`, i];
  const id = randomUUID();
  writeFileSync(path.join(temp.dir, id), new Uint8Array(await wb.xlsx.writeBuffer()));
  const storage = temp.storage();
  await storage.files.save(
    newUploadRecord({ id, ownerId: 'o', originalFilename: 'sparse.xlsx', filename: id, sizeBytes: 1 }),
  );
  // Counted on the real storage: each call is one INSERT of a batch file.
  const load = storage.rows.loadCsvFile.bind(storage.rows);
  let inserts = 0;
  storage.rows.loadCsvFile = (params) => {
    inserts++;
    return load(params);
  };
  try {
    const [file] = (
      await ingestFile(
        { storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp') },
        { fileId: id, ownerId: 'o', storedName: id, originalFilename: 'sparse.xlsx' },
      )
    ).filter((f) => f.id === id);
    expect(file).toMatchObject({ status: 'PROCESSED', totalRows: ROWS });
  } finally {
    storage.rows.loadCsvFile = load;
  }
  expect(inserts).toBe(1);
  const hits = await storage.rows.page(
    { files: [(await storage.files.get(id))!], criteria: { Name: 'Person 2999' } },
    0,
    5,
  );
  expect(hits.map((h) => [h.rowNumber, h.cells['Index']])).toEqual([[3 + 2 * 2999, '2999']]);
});
