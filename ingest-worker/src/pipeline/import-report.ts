import type { FileRow, Storage } from '@sift/clickhouse';
import { AUTHORS_HEADER, EMAIL_MATCH_HEADER, EMAILS_HEADER } from '@sift/shared/author-files';
import {
  IMPORT_FORMAT_LABELS,
  isTextFormat,
  REPORT_LIST_MAX,
  type AuthorPairingReport,
  type ImportEncoding,
  type ImportReport,
} from '@sift/shared/contracts';
import type { EncodingGuess, SpreadsheetFormat } from '@sift/spreadsheet';
import { authorColumns } from './author-rows.ts';
import type { LoadNotes } from './types.ts';

/**
 * Below this confidence (0–100) a detected encoding gets a warning. chardet's figures for
 * single-byte encodings are low even when right (18 for a Czech Windows-1250 sample, 36 for a
 * Polish ISO-8859-2 one), so only the lowest are worth a word.
 */
const LOW_CONFIDENCE = 10;

/** Rows of each pairing kind shown as examples in a report. */
const PAIRING_EXAMPLES = 3;

/** What an import report is made from: the loaded files' records and what the loaders noted. */
export interface ImportReportInput {
  storage: Storage;
  /** The GENERAL file, PROCESSED. */
  general: FileRow;
  format: SpreadsheetFormat;
  /** CSV files: how the encoding was chosen, and the delimiter found. */
  csv: { encoding: EncodingGuess; delimiter: string } | null;
  /** Other text files (tagged records, BibTeX): how the encoding was chosen. */
  encoding?: EncodingGuess | null | undefined;
  notes: LoadNotes;
}

/**
 * The owner's other files of `file`'s type, whatever their status: those whose rows a copy of one
 * of `file`'s records may be in.
 */
async function otherFiles(storage: Storage, file: FileRow): Promise<FileRow[]> {
  const theirs = await storage.files.list({ ownerId: file.ownerId, fileType: file.fileType });
  return theirs.filter((f) => f.id !== file.id);
}

/**
 * Lists the rows of a published AUTHOR file that copy an author of a record in the owner's other
 * AUTHOR files or twice in the file (RowCopies.record, each author's name part of the key), so that
 * the Authors search shows each author of a record exported twice once.
 *
 * @param storage - the storage
 * @param author - the AUTHOR file, PROCESSED
 * @returns how many of its rows are copies
 */
export async function listAuthorCopies(storage: Storage, author: FileRow): Promise<number> {
  const others = await otherFiles(storage, author);
  const names = new Set<string>();
  for (const f of [author, ...others]) {
    const cols = authorColumns(f.columnNames);
    if (cols) names.add(cols.authors);
  }
  return listCopies(storage, author, others, [...names]);
}

/**
 * Lists the copies of `file`'s records (RowCopies.record), then announces the owner's records
 * changed: what searches leave out changed, and what the API reuses while the records stay the
 * same (the rows left out, the facets: OwnerRecords.result) must be read again.
 */
async function listCopies(
  storage: Storage,
  file: FileRow,
  others: FileRow[],
  alsoHeaders: readonly string[] = [],
): Promise<number> {
  try {
    return await storage.rows.copies.record(file, others, alsoHeaders);
  } finally {
    await storage.recordsChanged([file.ownerId]);
  }
}

/**
 * The import report of a file (`ImportReport`): its encoding and delimiter (CSV), each sheet's
 * header row, renamed and empty columns and rows, records exported twice, and warnings. Reads the
 * file's rows once, and lists the copies of its records for the search (RowCopies.record). The
 * AUTHOR file's pairing (authorPairing) is added once that file is derived.
 */
export async function buildImportReport(input: ImportReportInput): Promise<ImportReport> {
  const { storage, general, notes } = input;
  const fills = new Map((await storage.rows.report.sheetFill(general)).map((f) => [f.sheet, f]));
  const warnings: string[] = [];
  const sheets = general.sheetNames.map((name) => {
    const note = notes.sheets.get(name);
    const fill = fills.get(name);
    const headers = note?.headers ?? [];
    const renamedColumns = headers.flatMap((to, i) => {
      const from = note?.raw[i] ?? '';
      return from.trim() === to ? [] : [{ column: i + 1, from, to }];
    });
    const widened = notes.widened.get(name) ?? 0;
    if (widened > 0)
      warnings.push(
        `Sheet "${name}": some rows had more cells than the header row; ${widened} ${widened === 1 ? 'column was' : 'columns were'} added for them.`,
      );
    const columns = headers.length + widened;
    const emptyColumns = fill ? headers.filter((h) => (fill.filled[h] ?? 0) === 0) : [];
    return {
      name,
      headerRow: note?.headerRow ?? 0,
      rows: fill?.rows ?? 0,
      columns,
      renamedColumns: renamedColumns.slice(0, REPORT_LIST_MAX),
      renamedTotal: renamedColumns.length,
      emptyColumns: emptyColumns.slice(0, REPORT_LIST_MAX),
      emptyTotal: emptyColumns.length,
    };
  });
  const overflow = general.columnNames.filter((h) => general.columnMap[h] === '');
  if (overflow.length)
    warnings.push(
      `${overflow.length} ${overflow.length === 1 ? 'column is' : 'columns are'} kept past the column limit: searchable, but more slowly (${overflow.slice(0, 5).join(', ')}${overflow.length > 5 ? ', …' : ''}).`,
    );
  const others = await otherFiles(storage, general);
  await listCopies(storage, general, others);
  const processed = others.filter((f) => f.status === 'PROCESSED');
  const recordCopies = await storage.rows.report.recordCopies(general, processed);
  if (recordCopies?.inOtherFiles)
    warnings.push(
      `${recordCopies.inOtherFiles.toLocaleString('en-US')} ${recordCopies.inOtherFiles === 1 ? 'record is' : 'records are'} already in your other files (the same DOI or database id): searches show each record once, from the newest upload, unless you ask for every copy.`,
    );
  const guess = input.csv?.encoding ?? input.encoding ?? null;
  const report: ImportReport = {
    fileId: general.id,
    originalFilename: general.originalFilename,
    format: input.format,
    source: sourceOf(input.format, input.csv?.delimiter ?? null, general.columnNames),
    ...(guess ? { encoding: encodingOf(guess) } : {}),
    ...(input.csv ? { delimiter: input.csv.delimiter } : {}),
    sheets,
    totalRows: general.totalRows,
    ...(recordCopies ? { recordCopies } : {}),
    warnings,
    createdAt: new Date().toISOString(),
  };
  const garbled = guess?.garbled ?? 0;
  if (garbled > 0)
    warnings.push(
      `${garbled} ${garbled === 1 ? 'character' : 'characters'} in the first 64 KB did not read cleanly as ${report.encoding!.name} (replacement characters or text like "MÃ¼ller"): if names look garbled, save the file as UTF-8 and upload it again.`,
    );
  else if (guess && guess.method === 'detector' && guess.confidence < LOW_CONFIDENCE)
    warnings.push(
      `The encoding was guessed as ${report.encoding!.name} with low confidence (${guess.confidence}%): if names look garbled, save the file as UTF-8 and upload it again.`,
    );
  return report;
}

/**
 * The services whose exports Sift knows by their columns: a column only that service's export has
 * (after tags are named), and its name.
 */
const SOURCES: readonly { service: string; has: (headers: Set<string>) => boolean }[] = [
  { service: 'Web of Science', has: (h) => h.has('UT (Unique WOS ID)') },
  { service: 'Scopus', has: (h) => h.has('EID') && (h.has('Author(s) ID') || h.has('Source title')) },
  {
    service: 'Dimensions',
    has: (h) => h.has('Dimensions URL') || (h.has('Publication ID') && h.has('PubYear')),
  },
  { service: 'Lens', has: (h) => h.has('Lens ID') },
  { service: 'PubMed', has: (h) => h.has('PMID') && h.has('Citation') && h.has('First Author') },
  {
    service: 'OpenAlex',
    has: (h) => h.has('authorships.author.display_name') || (h.has('id') && h.has('publication_year')),
  },
];

/**
 * What exported a file, for its import report: the tagged formats by name; a known service's
 * export by its columns and form (`Web of Science tab-delimited`, `Scopus CSV`, `Dimensions Excel`);
 * any other file by its format.
 *
 * @param format - how the file was read
 * @param delimiter - a delimited file's delimiter, else null
 * @param headers - the GENERAL file's columns (named)
 * @returns the source's name
 */
export function sourceOf(format: SpreadsheetFormat, delimiter: string | null, headers: string[]): string {
  // Tagged records and BibTeX name no service by their columns: the format's own name.
  if (format !== 'csv' && isTextFormat(format)) return IMPORT_FORMAT_LABELS[format];
  const form = format === 'csv' ? (delimiter === '\t' ? 'tab-delimited' : 'CSV') : 'Excel';
  const present = new Set(headers);
  const known = SOURCES.find((s) => s.has(present));
  if (known) return `${known.service} ${form}`;
  return format === 'csv' && delimiter === '\t' ? 'Tab-delimited text' : IMPORT_FORMAT_LABELS[format];
}

function encodingOf(guess: EncodingGuess): ImportEncoding {
  return {
    name: guess.encoding,
    method: guess.method,
    confidence: guess.confidence,
    ...(guess.detected ? { detected: guess.detected } : {}),
  };
}

/**
 * How an AUTHOR file's emails were paired: counts per Email Match value and a few examples each,
 * and how many source records gave an email (`recordsWithEmails`, counted while deriving).
 */
export async function authorPairing(
  storage: Storage,
  author: FileRow,
  recordsWithEmails?: number,
): Promise<AuthorPairingReport> {
  // The column authorHeaders added (`Email Match`, or `Email Match (2)` beside a source's own).
  const match =
    author.columnNames.findLast((h) => h === EMAIL_MATCH_HEADER || h.startsWith(`${EMAIL_MATCH_HEADER} (`)) ??
    EMAIL_MATCH_HEADER;
  const groups = await storage.rows.report.rowsByValue(
    author,
    match,
    [AUTHORS_HEADER, EMAILS_HEADER],
    PAIRING_EXAMPLES,
  );
  const rows = (value: string) => groups.find((g) => g.value === value)?.rows ?? 0;
  const kinds = ['name', 'position', 'unmatched'] as const;
  return {
    rows: groups.reduce((n, g) => n + g.rows, 0),
    ...(recordsWithEmails !== undefined ? { recordsWithEmails } : {}),
    byName: rows('name'),
    byPosition: rows('position'),
    unmatched: rows('unmatched'),
    withoutEmail: rows(''),
    examples: kinds.flatMap((kind) =>
      (groups.find((g) => g.value === kind)?.examples ?? []).map(([author = '', email = '']) => ({
        match: kind,
        author,
        email,
      })),
    ),
  };
}
