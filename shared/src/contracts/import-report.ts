/**
 * The import report of a file (issue 23): what Sift made of it while ingesting, so a person can
 * judge the result: `GET /api/file/files/{id}/report` (404 until the file is PROCESSED, and for
 * files ingested before reports existed). Written by the ingest worker once the file is done.
 */
import { z } from 'zod';

/** How a CSV file's encoding was chosen (see the spreadsheet package's `guessEncoding`). */
export interface ImportEncoding {
  /** The encoding the file was read in, by its WHATWG name (`utf-8`, `gb18030`, `windows-1250`…). */
  name: string;
  /**
   * `bom`: a byte order mark; `utf-8`: the bytes are valid UTF-8; `utf-16`: UTF-16 without a BOM,
   * known by its zero bytes; `detector`: chardet's statistics (or, for a short East Asian sample,
   * the characters a multi-byte reading gives); `chosen`: by a person, re-ingesting the file.
   */
  method: 'bom' | 'utf-8' | 'utf-16' | 'detector' | 'chosen';
  /** How sure the choice is, 0–100 (100 for a BOM or valid UTF-8). */
  confidence: number;
  /** The detector's own name for it, when it differs (`ISO-8859-1`, read as `windows-1252`). */
  detected?: string;
}

/**
 * Most entries an import report lists of one kind in a sheet (renamed, empty columns); the totals
 * say how many there are. A sheet of 16,384 blank headers would otherwise make a report of megabytes.
 */
export const REPORT_LIST_MAX = 50;

/** One sheet (a CSV file is one sheet) as ingested. */
export interface ImportSheetReport {
  name: string;
  /** The row (CSV: record) used as the header row, counted from 1: the first one with content. */
  headerRow: number;
  /** Data rows loaded (blank rows are skipped). */
  rows: number;
  columns: number;
  /**
   * Headers changed: Web of Science tags named as its Excel export names them
   * (`EM` → `Email Addresses`), and names made usable and unique: blank, repeated or reserved (the first
   * REPORT_LIST_MAX; `renamedTotal` counts them all).
   */
  renamedColumns: { column: number; from: string; to: string }[];
  renamedTotal: number;
  /** Columns blank in every row of the sheet (the first REPORT_LIST_MAX; `emptyTotal`: all). */
  emptyColumns: string[];
  emptyTotal: number;
}

/** How the AUTHOR file's emails were paired with authors (see the AUTHOR file's Email Match column). */
export interface AuthorPairingReport {
  /** AUTHOR rows written. */
  rows: number;
  /** Source records that gave at least one email (absent in reports written before it was counted). */
  recordsWithEmails?: number;
  /** Emails paired by the author's name in the address, by position in equal-length lists, or with no author. */
  byName: number;
  byPosition: number;
  unmatched: number;
  /** Authors left without an email. */
  withoutEmail: number;
  /** A few rows of each kind, for a person to judge the pairing. */
  examples: { match: 'name' | 'position' | 'unmatched'; author: string; email: string }[];
}

/** The formats Sift reads, as the import report and the ingest job name them. */
export const IMPORT_FORMATS = ['csv', 'xlsx', 'xls', 'wos-text', 'ris', 'medline', 'bibtex'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What the import report calls each format: the source's name for it. */
export const IMPORT_FORMAT_LABELS: Readonly<Record<ImportFormat, string>> = {
  csv: 'CSV',
  xlsx: 'XLSX',
  xls: 'XLS',
  'wos-text': 'Web of Science plain text',
  ris: 'RIS',
  medline: 'PubMed (MEDLINE)',
  bibtex: 'BibTeX',
};

/**
 * Whether a format is text, read in an encoding (delimited text, tagged records, BibTeX), rather
 * than a workbook.
 *
 * @param format - how a file was read
 * @returns whether it is a text format
 */
export function isTextFormat(format: ImportFormat): boolean {
  return format !== 'xlsx' && format !== 'xls';
}

export interface ImportReport {
  fileId: string;
  originalFilename: string;
  format: ImportFormat;
  /**
   * What exported the file, as its columns show (`Web of Science tab-delimited`, `Scopus CSV`,
   * `PubMed (MEDLINE)`, `Dimensions CSV`…), or the format's own name for any other file. Absent in
   * reports written before it was named.
   */
  source?: string;
  /** Text files (CSV, tagged records, BibTeX); absent for workbooks. */
  encoding?: ImportEncoding;
  /** CSV files only: `,`, `;`, a tab or `|`. */
  delimiter?: string;
  sheets: ImportSheetReport[];
  totalRows: number;
  /** Things the person may want to know: rows wider than the header row, columns kept past the guard. */
  warnings: string[];
  /**
   * Records exported twice (the same DOI, Web of Science UT, Scopus EID or PubMed id): rows whose
   * record came earlier in this file, and rows whose record is in the owner's other files too.
   * Absent for a file without such a column, and in reports written before they were counted.
   */
  recordCopies?: { inFile: number; inOtherFiles: number };
  /** Files with `Authors` and `Email Addresses` columns: how their AUTHOR file was paired. */
  authors?: AuthorPairingReport;
  /** When the ingest finished (ISO 8601). */
  createdAt: string;
}

/** Thousands separated, as the reports' counts are written (`1,873`). */
const counted = (n: number) => n.toLocaleString('en-US');

/**
 * One line saying what a file was and what came of it: its source, its records, and for a file
 * with an AUTHOR file how its emails were paired ("Web of Science tab-delimited, 500 records, 412
 * with emails, 1,873 authors of whom 1,204 paired by name, 8 by position, 661 without email").
 *
 * @param report - an import report
 * @returns the line, for the import report's heading
 */
export function importSummary(report: ImportReport): string {
  const parts = [report.source ?? IMPORT_FORMAT_LABELS[report.format] ?? report.format];
  parts.push(`${counted(report.totalRows)} ${report.totalRows === 1 ? 'record' : 'records'}`);
  const copies = report.recordCopies;
  if (copies?.inOtherFiles) parts.push(`${counted(copies.inOtherFiles)} already in your other files`);
  if (copies?.inFile) parts.push(`${counted(copies.inFile)} twice in this file`);
  const a = report.authors;
  if (a) {
    if (a.recordsWithEmails !== undefined) parts.push(`${counted(a.recordsWithEmails)} with emails`);
    const authors = a.byName + a.byPosition + a.withoutEmail;
    parts.push(
      `${counted(authors)} ${authors === 1 ? 'author' : 'authors'} of whom ${counted(a.byName)} paired by name`,
      `${counted(a.byPosition)} by position`,
      `${counted(a.withoutEmail)} without email`,
    );
    if (a.unmatched)
      parts.push(`${counted(a.unmatched)} ${a.unmatched === 1 ? 'email' : 'emails'} without an author`);
  }
  return parts.join(', ');
}

/** The last sheet row a person may choose as a header row when re-ingesting a file. */
export const HEADER_ROW_MAX = 100;

/** Whether the platform's `TextDecoder` knows `label` (`utf-8`, `windows-1250`, `shift_jis`…). */
function isEncodingLabel(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/**
 * How to read a file again (`POST /file/files/{id}/reingest`, and the ingest job it queues): the
 * encoding a person chose for a text file instead of the guess, and the header row of sheets whose
 * guess was wrong (sheet name → row number, 1 to HEADER_ROW_MAX). Both optional.
 */
export const readChoicesSchema = z.object({
  encoding: z
    .string()
    .trim()
    .max(40)
    .refine(isEncodingLabel, { message: 'Sift does not know that encoding.' })
    .optional(),
  headerRows: z
    .record(
      z.string().max(255),
      z
        .number()
        .int()
        .min(1, { message: 'A header row is a row number from 1.' })
        .max(HEADER_ROW_MAX, { message: `Choose a header row among the first ${HEADER_ROW_MAX} rows.` }),
    )
    .refine((rows) => Object.keys(rows).length <= 1_000, { message: 'Too many sheets.' })
    .optional(),
});
export type ReadChoices = z.infer<typeof readChoicesSchema>;
