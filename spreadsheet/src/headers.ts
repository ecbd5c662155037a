import { ROW_META } from '@sift/shared/contracts';
import { namedTags } from './record-tags.ts';

/**
 * Reserved keys that every search result row carries beside its cells (file, sheet, row number);
 * no header may take one of these names.
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set(Object.values(ROW_META));

/**
 * Makes a header row usable as column names, deterministically: names are trimmed; a blank one
 * becomes `Column N` (N = 1-based position); a repeated or reserved one gets ` (2)`, ` (3)`, ….
 * `taken` holds names already used in this sheet (for headers added later to a ragged sheet).
 *
 * @param raw - the header row's cells
 * @returns a name for each, blanks and duplicates renamed
 */
export function uniqueHeaders(raw: string[], taken: Set<string> = new Set(), offset = 0): string[] {
  return raw.map((cell, i) => {
    const base = cell.trim() || `Column ${offset + i + 1}`;
    let name = base;
    for (let n = 2; taken.has(name) || RESERVED_HEADERS.has(name); n++) name = `${base} (${n})`;
    taken.add(name);
    return name;
  });
}

/**
 * Headers widened to `width` columns with generated names (`Column N`) for a ragged sheet.
 *
 * @param headers - the header row's names
 * @param width - the columns the widest row has
 * @returns the headers, with generated names added
 */
export function widenHeaders(headers: string[], width: number): string[] {
  if (width <= headers.length) return headers;
  const more = uniqueHeaders(
    new Array<string>(width - headers.length).fill(''),
    new Set(headers),
    headers.length,
  );
  return [...headers, ...more];
}

/**
 * A sheet's column names from its header row: tags (Web of Science, RIS, MEDLINE) named as their
 * source names its columns (namedTags), then made usable (uniqueHeaders).
 *
 * @param raw - the header row's cells
 * @returns a name for each cell
 */
export function headerNames(raw: string[]): string[] {
  return uniqueHeaders(namedTags(raw));
}

/** Shortest text of a title row above the header (a header cell is rarely this long alone). */
const TITLE_MIN_LENGTH = 25;
/** Title rows looked past at most, above the header. */
const TITLE_ROWS_MAX = 5;

/** A row that reads as a title: one non-empty cell, of TITLE_MIN_LENGTH characters or more. */
function isTitleRow(cells: readonly string[]): boolean {
  const filled = cells.filter((c) => c.trim());
  return filled.length === 1 && filled[0]!.trim().length >= TITLE_MIN_LENGTH;
}

/**
 * Which of a sheet's first non-blank rows is its header row: past title rows above it (Dimensions'
 * `About the data: Exported on …` line, a statistical table's caption), when they are followed by a
 * row of three or more filled cells; otherwise the first row, as before.
 *
 * @param rows - the sheet's first non-blank rows, in order (TITLE_ROWS_MAX + 1 are enough)
 * @returns the index of the header row among them
 */
export function headerRowIndex(rows: readonly (readonly string[])[]): number {
  let k = 0;
  while (k < rows.length && k < TITLE_ROWS_MAX && isTitleRow(rows[k]!)) k++;
  const next = rows[k];
  return k > 0 && next && next.filter((c) => c.trim()).length >= 3 ? k : 0;
}

/**
 * The index of the header row among a sheet's first non-blank rows (each with its row number): the
 * first at or after the row a person chose (`chosen`, counted from 1; -1 while none is), else
 * headerRowIndex's.
 *
 * @param rows - the sheet's first non-blank rows so far, in order
 * @param chosen - the header row a person chose for the sheet, if any
 * @returns the index of the header row among them, or -1
 */
export function headerRowAt(
  rows: readonly { rowNumber: number; cells: readonly string[] }[],
  chosen?: number,
): number {
  if (chosen === undefined) return headerRowIndex(rows.map((r) => r.cells));
  return rows.findIndex((r) => r.rowNumber >= chosen);
}

/**
 * Whether the header row can be decided from `rows` as headerRowAt decides it: with a chosen row,
 * once a row at or after it has come; else as headerRowDecided.
 *
 * @param rows - the sheet's first non-blank rows so far, in order
 * @param chosen - the header row a person chose for the sheet, if any
 * @returns whether headerRowAt may be asked now
 */
export function headerRowDecidedAt(
  rows: readonly { rowNumber: number; cells: readonly string[] }[],
  chosen?: number,
): boolean {
  if (chosen === undefined) return headerRowDecided(rows.map((r) => r.cells));
  return (rows[rows.length - 1]?.rowNumber ?? 0) >= chosen;
}

/**
 * Whether the header row can be decided from `rows` (a sheet's first non-blank rows so far): the
 * last of them is no title row, or enough have been read.
 *
 * @param rows - the sheet's first non-blank rows so far
 * @returns whether headerRowIndex may be asked now
 */
export function headerRowDecided(rows: readonly (readonly string[])[]): boolean {
  const last = rows[rows.length - 1];
  return !!last && (!isTitleRow(last) || rows.length > TITLE_ROWS_MAX);
}
