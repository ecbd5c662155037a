import * as XLSX from '@e965/xlsx';
import { readFile } from 'node:fs/promises';
import type { ParsedRow, ReadProgress } from './types.ts';
import { shownText } from './number-format.ts';

/**
 * Reads a legacy .xls (BIFF) workbook with SheetJS (`@e965/xlsx`, the maintained 0.20 build). BIFF
 * cannot be streamed, so the workbook is held in memory; legacy sheets are limited to 65,536 rows.
 * Numbers read as shown (their number format), dates in ISO form.
 *
 * @param filePath - the stored workbook
 * @param progress - where bytes read are counted
 * @returns every row of every sheet, in order
 * @throws InvalidFileError for a workbook SheetJS cannot read
 */
export async function* readXls(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const bytes = await readFile(filePath);
  progress.bytesRead = bytes.length;
  const workbook = XLSX.read(bytes, { cellDates: true, dense: true });
  for (const sheetName of workbook.SheetNames) {
    const sheet = workbook.Sheets[sheetName];
    if (!sheet || !sheet['!ref']) continue;
    const range = XLSX.utils.decode_range(sheet['!ref']);
    const data = (sheet['!data'] ?? []) as (XLSX.CellObject | undefined)[][];
    for (let r = range.s.r; r <= range.e.r; r++) {
      const line = data[r] ?? [];
      const cells: string[] = [];
      for (let c = range.s.c; c <= range.e.c; c++) {
        const cell = line[c];
        cells.push(
          cell ? shownText(cell.v, cell.t === 'n' ? (cell.z as string | undefined) : undefined) : '',
        );
      }
      yield { sheet: sheetName, rowNumber: r + 1, cells };
    }
  }
}
