import * as XLSX from '@e965/xlsx';
import { readFile } from 'node:fs/promises';
import type { ParsedRow, ReadProgress } from './index.ts';
import { cellText } from './cells.ts';

/**
 * Reads a legacy .xls (BIFF) workbook with SheetJS (`@e965/xlsx`, the maintained 0.20 build). BIFF
 * cannot be streamed, so the workbook is held in memory; legacy sheets are limited to 65,536 rows.
 */
export async function* readXls(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const bytes = await readFile(filePath);
  progress.bytesRead = bytes.length;
  const workbook = XLSX.read(bytes, { cellDates: true, dense: true });
  for (const sheetName of workbook.SheetNames) {
    const sheet = workbook.Sheets[sheetName];
    if (!sheet || !sheet['!ref']) continue;
    const range = XLSX.utils.decode_range(sheet['!ref']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: true,
      defval: '',
      blankrows: true,
    });
    for (let i = 0; i < rows.length; i++) {
      yield { sheet: sheetName, rowNumber: range.s.r + i + 1, cells: rows[i]!.map(cellText) };
    }
  }
}
