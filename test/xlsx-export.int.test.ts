/**
 * The streaming xlsx writer behind XLSX exports: rows from JavaScript and rows whose XML
 * the engine wrote give the same workbook; sheets fill up to their limit and continue on
 * `Results 2`, `Results 3`… with the header on each; the files read back the same with exceljs,
 * SheetJS and Sift's own reader, every value a string (never a formula), text kept exactly.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FileRow, Storage } from '@sift/clickhouse';
import { readSpreadsheet } from '@sift/spreadsheet';
import { XlsxStreamWriter } from '@sift/api';
import { rowXml } from '@sift/shared/ooxml';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('xlsx');
let storage: Storage;
let file: FileRow;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADERS = ['Name', 'Note'];
const ROWS: string[][] = [
  ['Ada', '=1+1'],
  ['Bob', 'line\nbreak and\rreturn'],
  ['', 'no name <b>&amp;</b> "quoted"'],
  ['Zoë', ''],
  ['Ünïcode 😀', 'tab\there'],
  ['  spaced  ', ' lead'],
  ['Last', '-42'],
  ['Seventh', 'x'],
];

beforeAll(async () => {
  storage = temp.storage();
  const columnMap = await storage.rows.ensureColumns(HEADERS, []);
  await storage.rows.insert({
    fileId: 'f1',
    sheet: 'S',
    headers: HEADERS,
    columnMap,
    firstRowNumber: 2,
    rows: ROWS,
  });
  file = { id: 'f1', columnMap, originalFilename: 'f1.csv' } as FileRow;
});

/** Runs `write` against a writer into memory; returns the workbook's bytes. */
async function workbook(
  header: string[] | null,
  perSheet: number,
  write: (w: XlsxStreamWriter) => Promise<void>,
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const writer = new XlsxStreamWriter(out, header && rowXml(header, 1), perSheet);
  await write(writer);
  await writer.finish();
  return Buffer.concat(chunks);
}

/** Every sheet as [name, rows] with exceljs, SheetJS and Sift's reader; asserts they agree. */
async function sheets(bytes: Buffer): Promise<[string, string[][]][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const byExceljs = wb.worksheets.map((ws): [string, string[][]] => {
    const rows: string[][] = [];
    ws.eachRow({ includeEmpty: true }, (row) => {
      const values = (row.values as unknown[]).slice(1);
      rows.push(HEADERS.map((_, i) => (values[i] === undefined ? '' : String(values[i]))));
      for (const v of values) if (v !== undefined) expect(typeof v).toBe('string');
    });
    return [ws.name, rows];
  });
  const sj = XLSX.read(bytes);
  const bySheetJs = sj.SheetNames.map((name): [string, string[][]] => [
    name,
    XLSX.utils
      .sheet_to_json<string[]>(sj.Sheets[name]!, { header: 1, defval: '', raw: false })
      .map((r) => HEADERS.map((_, i) => String(r[i] ?? ''))),
  ]);
  const f = path.join(dir, `${Math.random()}.xlsx`);
  writeFileSync(f, bytes);
  const bySift = new Map<string, string[][]>();
  for await (const row of readSpreadsheet(f, 'export.xlsx')) {
    if (!bySift.has(row.sheet)) bySift.set(row.sheet, []);
    bySift.get(row.sheet)!.push(HEADERS.map((_, i) => row.cells[i] ?? ''));
  }
  expect(bySheetJs).toEqual(byExceljs);
  expect([...bySift]).toEqual(byExceljs);
  return byExceljs;
}

it('splits rows over sheets of a fixed size, the header on each, the same from JavaScript and the engine', async () => {
  // Cells keep their exact values (`=1+1`, `-42`): an inline string is never a formula, so the
  // CSV's formula guard has no place here, in JavaScript or in the engine's SQL.
  const fromJs = await workbook(HEADERS, 3, async (w) => {
    for (const r of ROWS) await w.addRow(r);
  });
  const fromEngine = await workbook(HEADERS, 3, async (w) => {
    // Pieces of 2 rows: they straddle the sheet boundaries.
    const pieces = storage.rows.xlsxRows(
      { files: [file], criteria: {}, columns: HEADERS },
      { rows: 3, headerRows: 1 },
      2,
    );
    for await (const p of pieces) await w.addRows(p.text, p.rows);
  });
  const fromFiles = await workbook(HEADERS, 3, async (w) => {
    const files = storage.rows.xlsxSheetFiles(
      { files: [file], criteria: {}, columns: HEADERS },
      { rows: 3, headerRows: 1 },
      (i) => path.join(dir, `sheet-${i}.xml`),
    );
    for await (const f of files) await w.addSheet(createReadStream(f.path), f.rows);
  });
  const js = await sheets(fromJs);
  expect(js.map(([name, rows]) => [name, rows.length])).toEqual([
    ['Results', 4],
    ['Results 2', 4],
    ['Results 3', 3],
  ]);
  expect(js.map(([, rows]) => rows[0])).toEqual([HEADERS, HEADERS, HEADERS]);
  expect(js.flatMap(([, rows]) => rows.slice(1))).toEqual(ROWS);
  expect(await sheets(fromEngine)).toEqual(js);
  expect(await sheets(fromFiles)).toEqual(js);
});

it('writes a workbook with one empty sheet when nothing matches, and without a header when asked', async () => {
  const empty = await workbook(HEADERS, 3, async () => {});
  expect(await sheets(empty)).toEqual([['Results', [HEADERS]]]);
  const bare = await workbook(null, 10, async (w) => {
    for (const r of ROWS.slice(0, 2)) await w.addRow(r);
  });
  expect((await sheets(bare))[0]![1]).toEqual([
    ['Ada', '=1+1'],
    ['Bob', 'line\nbreak and\rreturn'],
  ]);
});
