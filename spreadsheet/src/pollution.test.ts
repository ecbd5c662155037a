/**
 * CVE-2023-30533: a workbook whose cell comment has `ref="__proto__"` polluted Object.prototype in
 * SheetJS before 0.19.3. Sift's SheetJS build (\@e965/xlsx 0.20.x) and its own reading path must
 * leave Object.prototype alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, expect, it } from 'vitest';
import { readSpreadsheet } from './index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-pollution-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function craftedWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(['Name']);
  ws.addRow(['Ada']);
  ws.getCell('A2').note = 'polluted';
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  const commentsPath = Object.keys(zip.files).find((f) => /comments\d*\.xml$/.test(f))!;
  const xml = await zip.file(commentsPath)!.async('string');
  zip.file(commentsPath, xml.replace(/ref="A2"/, 'ref="__proto__"'));
  return zip.generateAsync({ type: 'nodebuffer' });
}

it('reads a workbook with a __proto__ comment ref without polluting Object.prototype', async () => {
  const bytes = await craftedWorkbook();
  XLSX.read(bytes); // the SheetJS build Sift ships
  const file = path.join(dir, 'crafted.xlsx');
  writeFileSync(file, bytes);
  const rows = [];
  for await (const r of readSpreadsheet(file, 'crafted.xlsx')) rows.push(r.cells);
  expect(rows).toEqual([['Name'], ['Ada']]);
  // xlsx@0.18.5 adds `c` to Object.prototype when reading this very file.
  expect(Object.keys(Object.prototype)).toEqual([]);
});
