import ExcelJS from 'exceljs';
import type { ParsedRow, ReadProgress } from './index.ts';
import { countingReadStream } from './counting-stream.ts';
import { shownText } from './number-format.ts';

/**
 * Streams every worksheet of an .xlsx workbook with exceljs's streaming WorkbookReader (memory stays
 * bounded by the row, not the sheet). Shared strings and styles are cached so text, dates and number
 * formats resolve; formulas give their cached values; numbers read as shown. Row numbers are the
 * sheet's own (1-based).
 */
export async function* readXlsx(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(countingReadStream(filePath, progress), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  for await (const worksheet of reader) {
    const ws = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
    for await (const row of ws) {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = shownText(cell.value, cell.numFmt);
      });
      for (let i = 0; i < cells.length; i++) cells[i] ??= '';
      yield { sheet: ws.name, rowNumber: row.number, cells };
    }
  }
}
