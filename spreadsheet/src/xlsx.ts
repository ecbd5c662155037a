import { stat } from 'node:fs/promises';
import type { Entry } from 'yauzl';
import type { ParsedRow, ReadProgress } from './types.ts';
import { partKey, readWorkbookParts, textOf } from './xlsx-workbook.ts';
import { WorksheetRows } from './xlsx-worksheet.ts';
import { listEntries, openEntry, openZip } from './zip-scan.ts';

/**
 * Streams every worksheet of an .xlsx workbook, in the workbook's sheet order, as text rows.
 *
 * The zip is read by its central directory (yauzl), so the order of its parts does not matter, and
 * each XML part is read as a stream by XmlScanner: shared strings and number formats are read first
 * and kept, then each worksheet is read row by row (memory bounded by the shared strings and one
 * chunk of rows). Cells read as a spreadsheet program shows them (see shownText): shared, inline
 * and rich-text strings (all runs, without phonetic guides), formulas as their cached value,
 * booleans TRUE/FALSE, errors as their code, dates in ISO form. Row numbers are the sheet's own
 * (1-based); a row's cell i is column i + 1 (gaps are empty strings).
 *
 * Why not exceljs's streaming reader (the stack's first choice): it is slower than this reader (see
 * XmlScanner for the numbers), and it lost sheets without an error for some part orders and for
 * stored (uncompressed) parts, which needed a repacked copy first.
 *
 * Throws (Error, turned into InvalidFileError by readSpreadsheet) when a part is malformed or a
 * sheet the workbook lists is missing.
 *
 * @param filePath - the stored workbook
 * @param progress - where bytes read are counted
 * @returns every row of every sheet, in order
 * @throws InvalidFileError for a workbook past Excel's limits or unreadable
 */
export async function* readXlsx(filePath: string, progress: ReadProgress): AsyncGenerator<ParsedRow> {
  const size = (await stat(filePath)).size;
  const zip = await openZip(filePath);
  try {
    const parts = new Map<string, Entry>();
    for (const entry of await listEntries(zip)) parts.set(partKey(entry.fileName), entry);
    const book = await readWorkbookParts(zip, parts);
    const sheets = book.sheets.map((sheet) => {
      const entry = sheet.target ? parts.get(partKey(sheet.target)) : undefined;
      if (!entry) throw new Error(`its sheet "${sheet.name}" is missing from the file`);
      return { name: sheet.name, entry };
    });
    const total = Math.max(
      1,
      sheets.reduce((sum, s) => sum + s.entry.uncompressedSize, 0),
    );
    let done = 0;
    for (const sheet of sheets) {
      const rows = new WorksheetRows(sheet.name, book);
      for await (const chunk of textOf(await openEntry(zip, sheet.entry))) {
        rows.write(chunk);
        done += Buffer.byteLength(chunk);
        progress.bytesRead = Math.floor((size * Math.min(done, total)) / total);
        yield* rows.take();
      }
      rows.close();
      yield* rows.take();
    }
  } finally {
    zip.close();
  }
}
