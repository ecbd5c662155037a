/**
 * The engine-written CSV export (RowsRepository.csv): pieces bounded by keys lose and repeat no row,
 * follow (file, sheet, row) order, fill missing columns with empty fields, add file/sheet/row on
 * request, and neutralise formula-like cells exactly as the JavaScript exporter does.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { beforeAll, expect, it } from 'vitest';
import { neutralise } from '@sift/shared/csv-injection';
import { newUploadRecord, type FileRow, type Storage } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('rows-csv');
const dir = temp.dir;
let storage: Storage;
beforeAll(() => {
  storage = temp.storage();
});

/** A file record with these headers and its rows loaded, sheet by sheet. */
async function file(name: string, headers: string[], sheets: Record<string, string[][]>): Promise<FileRow> {
  const record: FileRow = {
    ...newUploadRecord({
      id: randomUUID(),
      ownerId: 'o',
      originalFilename: name,
      filename: '',
      sizeBytes: 0,
    }),
    status: 'PROCESSED',
    columnNames: headers,
    sheetNames: Object.keys(sheets),
    columnMap: await storage.rows.ensureColumns(headers),
  };
  for (const [sheet, rows] of Object.entries(sheets)) {
    await storage.rows.insert({
      fileId: record.id,
      sheet,
      headers,
      columnMap: record.columnMap,
      firstRowNumber: 2,
      rows,
    });
  }
  await storage.files.save(record);
  return record;
}

it('writes every row once, in order, in pieces, with metadata and neutralised cells', async () => {
  const payloads = ['=1+1', '+x', '-2', '-2+3', '@a', '\tt', '\rr', '\nn', 'say "hi", ok', 'Müller'];
  const a = await file('a.csv', ['Name', 'Note'], {
    Second: payloads.map((p, i) => [`a${i}`, p]),
    First: [['a-first', 'x']],
  });
  const b = await file('b.csv', ['Name', 'Other'], {
    Only: [
      ['b0', 'o0'],
      ['b1', 'o1'],
    ],
  });
  const files = [a, b].sort((x, y) => (x.id < y.id ? -1 : 1));
  const columns = ['Name', 'Note', 'Missing'];

  const expected: string[][] = [];
  for await (const batch of storage.rows.scan({ files, criteria: {} })) {
    for (const hit of batch) {
      const name = files.find((f) => f.id === hit.fileId)!.originalFilename;
      expected.push([
        name,
        hit.sheet,
        String(hit.rowNumber),
        ...columns.map((c) => neutralise(hit.cells[c] ?? '')),
      ]);
    }
  }
  expect(expected).toHaveLength(13);

  for (const batchRows of [1, 3, 100]) {
    let text = '';
    for await (const piece of storage.rows.csv({ files, criteria: {}, columns, metadata: true }, batchRows))
      text += piece;
    const parsed = XLSX.utils.sheet_to_json<string[]>(
      XLSX.read(text, { type: 'string', raw: true }).Sheets.Sheet1!,
      {
        header: 1,
        raw: false,
        defval: '',
      },
    );
    expect(parsed.map((r) => r.map(String))).toEqual(expected);
  }

  // The engine writing the file itself gives the same bytes, after what the file already holds.
  let pieces = '';
  for await (const piece of storage.rows.csv({ files, criteria: {}, columns, metadata: true }, 4))
    pieces += piece;
  const out = path.join(dir, 'export.csv');
  writeFileSync(out, 'HEAD\n');
  // In pieces of 3 rows: after each, the file is a growing, final beginning of the whole.
  const whole = `HEAD\n${pieces}`;
  const seen: number[] = [];
  for await (const rows of storage.rows.appendCsvFile(
    { files, criteria: {}, columns, metadata: true },
    out,
    3,
  )) {
    const sofar = readFileSync(out, 'utf8');
    expect(whole.startsWith(sofar)).toBe(true);
    expect(sofar.length).toBeGreaterThan(seen.at(-1) ?? 5);
    seen.push(sofar.length);
    expect(rows).toBe(seen.length * 3);
  }
  expect(seen.length).toBeGreaterThan(0);
  expect(readFileSync(out, 'utf8')).toBe(`HEAD\n${pieces}`);

  // With the rows counted and no more than a piece of them: the same bytes, in one query.
  const counted = await storage.rows.count({ files, criteria: {} });
  writeFileSync(out, 'HEAD\n');
  const steps = [];
  for await (const rows of storage.rows.appendCsvFile(
    { files, criteria: {}, columns, metadata: true },
    out,
    counted,
    counted,
  ))
    steps.push(rows);
  expect(steps).toEqual([]);
  expect(readFileSync(out, 'utf8')).toBe(`HEAD\n${pieces}`);

  let filtered = '';
  for await (const piece of storage.rows.csv({ files, criteria: { Note: 'MÜLLER' }, columns: ['Name'] }, 2))
    filtered += piece;
  expect(filtered).toBe('"a9"\n');
});

/** A ~50 MB CSV of 300,000 rows (its load outlasts the first poll even on a busy machine) and its columns. */
async function bigCsv(name: string) {
  const headers = ['Name', 'Title', 'Notes'];
  const columnMap = await storage.rows.ensureColumns(headers);
  const csvPath = path.join(dir, name);
  const line = (i: number) => `Person ${i},"A title, number ${i}",${'notes '.repeat(20)}${i}\n`;
  writeFileSync(csvPath, Array.from({ length: 300_000 }, (_, i) => line(i)).join(''));
  return { headers, columnMap, csvPath };
}

it('reports the bytes the engine has read while it loads a CSV file', async () => {
  const { headers, columnMap, csvPath } = await bigCsv('progress.csv');
  const size = readFileSync(csvPath).length;
  const seen: number[] = [];
  const fileId = randomUUID();
  await storage.rows.loadCsvFile({
    fileId,
    sheet: 'progress',
    path: csvPath,
    delimiter: ',',
    columns: headers.map((h) => columnMap[h]!),
    firstRowNumber: 1,
    progressEveryMs: 20,
    onProgress: (bytes) => seen.push(bytes),
  });
  expect(await storage.rows.countFile(fileId)).toBe(300_000);
  // The engine's own count: several readings, never going back, never past the file.
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(seen.every((b) => b >= 0 && b <= size)).toBe(true);
  expect(new Set(seen).size).toBeGreaterThanOrEqual(2);
});

it('rejects with what a progress report threw once the INSERT has settled, and nothing escapes', async () => {
  const { headers, columnMap, csvPath } = await bigCsv('stopping.csv');
  const stopping = new Error('Sift is stopping');
  const unhandled: unknown[] = [];
  const note = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', note);
  let reports = 0;
  try {
    const fileId = randomUUID();
    await expect(
      storage.rows.loadCsvFile({
        fileId,
        sheet: 'stop',
        path: csvPath,
        delimiter: ',',
        columns: headers.map((h) => columnMap[h]!),
        firstRowNumber: 1,
        progressEveryMs: 1,
        onProgress: () => {
          reports++;
          throw stopping; // as the ingest's report does once its job is aborted
        },
      }),
    ).rejects.toBe(stopping);
    expect(reports).toBe(1); // not called again after it threw
    // The INSERT was not cut short: its rows are there for the next attempt to remove.
    expect(await storage.rows.countFile(fileId)).toBe(300_000);
  } finally {
    process.off('unhandledRejection', note);
  }
  expect(unhandled).toEqual([]);
});
