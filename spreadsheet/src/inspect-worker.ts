/**
 * The tasks of the inspection pool (inspect.ts), each run in one of its worker threads: what is
 * read of an upload before its rows are (its format, encoding and first records). Each answers an
 * Outcome, since an InvalidFileError's kind would not survive the thread boundary.
 */
import { setPriority } from 'node:os';
import { InvalidFileError } from './errors.ts';
import { trimRow } from './cell-text.ts';
import { detectDelimiter, readCsv, sniff, type Encoding, type EncodingGuess } from './csv.ts';
import type { SpreadsheetFormat } from './format.ts';
import { READER_NICE } from './isolated-read.ts';
import { LimitError, refusedFile } from './limits.ts';
import { validateSpreadsheet } from './validate.ts';
import type { InvalidFileKind } from './errors.ts';

// Inspection is background work too: the API's requests get the cores first (READER_NICE).
try {
  setPriority(READER_NICE);
} catch {
  // not allowed here (or not Linux): the thread runs at the process's priority
}

/** A task's answer: its value, or why the file is refused (an InvalidFileError, rebuilt by the caller). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string; kind: InvalidFileKind };

/** What inspecting a stored upload finds. */
export interface Inspection {
  format: SpreadsheetFormat;
  /** For text formats: the encoding, and the first bytes decoded (`sample`, up to 64 KB). */
  sniffed: (EncodingGuess & { sample: string }) | null;
  /** For a CSV: its delimiter, from the sample. */
  delimiter: string | null;
}

/** One record of a CSV's first ones: its record number and its cells, trailing empty ones cut. */
export interface LeadingRow {
  rowNumber: number;
  cells: string[];
}

async function outcome<T>(work: () => Promise<T>, originalName: string): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    if (e instanceof InvalidFileError) return { ok: false, message: e.message, kind: e.kind };
    if (e instanceof LimitError) {
      const refused = refusedFile(originalName, e);
      return { ok: false, message: refused.message, kind: refused.kind };
    }
    throw e;
  }
}

/**
 * The format of a stored upload (validateSpreadsheet, unless `format` is already known) and, for
 * text formats unless `formatOnly`, its encoding (the one `encoding` names, when a person chose it)
 * and delimiter.
 *
 * @param task - the stored upload, the name the user gave it, what is already known of it
 * @returns the inspection, or why the file is refused
 */
export function inspectUpload(task: {
  filePath: string;
  originalName: string;
  format?: SpreadsheetFormat | undefined;
  encoding?: Encoding | undefined;
  formatOnly?: boolean | undefined;
}): Promise<Outcome<Inspection>> {
  return outcome(async () => {
    const format = task.format ?? (await validateSpreadsheet(task.filePath, task.originalName));
    if (task.formatOnly || format === 'xlsx' || format === 'xls')
      return { format, sniffed: null, delimiter: null };
    const sniffed = await sniff(task.filePath, task.encoding);
    return { format, sniffed, delimiter: format === 'csv' ? detectDelimiter(sniffed.sample) : null };
  }, task.originalName);
}

/**
 * A CSV's first records with content (blank ones skipped): at most `maxRows`, and no more once
 * their cells hold `maxChars` characters together.
 *
 * @param task - the CSV, the name the user gave it, the sheet name its rows carry, a chosen encoding
 * @returns the records, or why the file is refused (a cell past the cap)
 */
export function leadingRows(task: {
  filePath: string;
  originalName: string;
  sheet: string;
  encoding?: Encoding | undefined;
  maxRows: number;
  maxChars: number;
}): Promise<Outcome<LeadingRow[]>> {
  return outcome(async () => {
    const rows: LeadingRow[] = [];
    let chars = 0;
    for await (const row of readCsv(task.filePath, task.sheet, { bytesRead: 0 }, task.encoding)) {
      const cells = trimRow(row.cells);
      if (!cells.some((c) => c.trim())) continue;
      rows.push({ rowNumber: row.rowNumber, cells });
      for (const c of cells) chars += c.length;
      if (rows.length >= task.maxRows || chars >= task.maxChars) break;
    }
    return rows;
  }, task.originalName);
}
