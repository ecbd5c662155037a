import ExcelJS from 'exceljs';
import type { ParsedRow, ReadProgress } from './index.ts';
import { countingReadStream } from './counting-stream.ts';
import { shownText } from './number-format.ts';
import { repackedCopyIfNeeded } from './zip-repack.ts';

/**
 * Streams every worksheet of an .xlsx workbook with exceljs's streaming WorkbookReader (memory stays
 * bounded by the row, not the sheet). Shared strings and styles are cached so text, dates and number
 * formats resolve; formulas give their cached values; numbers read as shown. Row numbers are the
 * sheet's own (1-based).
 */
export async function* readXlsx(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const copy = await repackedCopyIfNeeded(filePath);
  try {
    yield* readWorkbook(copy?.path ?? filePath, progress);
  } finally {
    await copy?.dispose();
  }
}

async function* readWorkbook(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(countingReadStream(filePath, progress), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  deferSheetsUntilWorkbookPart(reader);
  let sheetsRead = 0;
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
    sheetsRead++;
  }
  checkComplete(reader, sheetsRead);
}

/**
 * Fails when the reader ended before it had read the whole workbook (seen with uncompressed zip
 * entries, where exceljs's zip stream can stop early without an error): the workbook part must have
 * been read, and every worksheet it lists must have been emitted. A partial read must never pass
 * for the whole file.
 */
function checkComplete(reader: object, sheetsRead: number): void {
  const r = reader as {
    model?: { sheets?: { rId: string }[] };
    workbookRels?: { Id: string; Target: string }[];
  };
  if (!r.model) throw new Error('its workbook part (xl/workbook.xml) could not be read');
  const worksheets = new Set(
    (r.workbookRels ?? []).filter((rel) => /(^|\/)worksheets\//.test(rel.Target)).map((rel) => rel.Id),
  );
  const expected = (r.model.sheets ?? []).filter((sh) => worksheets.has(sh.rId)).length;
  if (sheetsRead < expected) throw new Error(`only ${sheetsRead} of its ${expected} sheets could be read`);
}

/**
 * exceljs's streaming reader parses a worksheet as soon as it has met the shared strings and the
 * workbook relationships, and then reads the sheet list of `xl/workbook.xml`; when that part comes
 * later in the zip (the order is free, and exceljs's own writer varies it), reading fails with
 * "Cannot read properties of undefined (reading 'sheets')". Hiding the relationships until the
 * workbook part is parsed makes the reader keep such sheets aside (its temp-file path) and parse
 * them at the end, when everything is known.
 */
function deferSheetsUntilWorkbookPart(reader: object): void {
  let rels: unknown;
  Object.defineProperty(reader, 'workbookRels', {
    configurable: true,
    get(this: { model?: unknown }) {
      return this.model ? rels : undefined;
    },
    set(value: unknown) {
      rels = value;
    },
  });
}
