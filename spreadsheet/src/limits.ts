import { InvalidFileError } from './errors.ts';

/**
 * What Sift reads from one uploaded spreadsheet. Where Excel has a limit Sift keeps it, so a file
 * that claims more than Excel can hold (a cell at column XFE, a 100 MB cell) is refused with a
 * message instead of costing the process its memory; the other limits bound what is held in memory
 * while a file is read. docs/security.md lists them.
 */
export const SHEET_LIMITS = {
  /** Excel's last row. */
  maxRows: 1_048_576,
  /** Excel's last column (XFD). */
  maxColumns: 16_384,
  /** Characters a cell may hold (Excel's limit). */
  maxCellChars: 32_767,
  /**
   * Characters a cell of a text export (CSV, tab-delimited, tagged records) may hold: more than
   * Excel's, since Web of Science's text exports do not cut a review's cited references at it; capped
   * so that no parser meets a cell of megabytes.
   */
  maxTextCellChars: 262_144,
  /** Shared strings of one workbook: they are held in memory while its sheets are read. */
  maxSharedStrings: 16_000_000,
  /** Characters of all shared strings together. */
  maxSharedStringChars: 256 * 2 ** 20,
  /**
   * Cell formats (`xf` of `cellXfs`) and custom number formats (`numFmt`) of a workbook: Excel's
   * limit of unique cell formats. They are held in memory while its sheets are read, and a styles
   * part of nothing but `<xf/>` is 200 million of them in a 1 GB part (5 MB compressed).
   */
  maxCellFormats: 65_490,
  /**
   * Cells a sheet's rows may span for each cell that holds something, once they span more than
   * `spreadFromCells`: rows are read as arrays up to their last cell, so one cell in column XFD
   * makes 16,384 of a row, and a 1.4 MB workbook of such rows cost 792 MB and 230 s to read.
   */
  maxSpread: 100,
  spreadFromCells: 1_000_000,
  /** Legacy .xls is read whole into memory (SheetJS), so its size is capped well below uploads'. */
  maxXlsBytes: 100 * 2 ** 20,
} as const;

/**
 * A file that passes what Sift reads (SHEET_LIMITS, ZIP_LIMITS). `message` completes the sentence
 * '"file" was refused: …' (readSpreadsheet turns it into InvalidFileError, kind `unsafe`).
 */
export class LimitError extends Error {
  override readonly name = 'LimitError';
}

/**
 * The InvalidFileError (kind `unsafe`) a reader's LimitError becomes for the person who uploaded
 * the file: '"name" was refused: …'.
 *
 * @param originalName - the name the user gave the file
 * @param e - what the reader found past a limit
 * @returns the error to fail the file with
 */
export function refusedFile(originalName: string, e: LimitError): InvalidFileError {
  return new InvalidFileError(`"${originalName}" was refused: ${e.message}.`, 'unsafe');
}

/** Thousands separated, for messages (`1,048,576`). */
export const count = (n: number) => n.toLocaleString('en-US');
