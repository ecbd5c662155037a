/** What the readers yield and report, whatever the format. */

/** How far reading has got: bytes of the stored file consumed so far (for progress). */
export interface ReadProgress {
  bytesRead: number;
}

/** One row of one sheet, as text cells (index 0 = column A). */
export interface ParsedRow {
  sheet: string;
  /** The row's number within its sheet as a spreadsheet program shows it (1-based). */
  rowNumber: number;
  cells: string[];
}
