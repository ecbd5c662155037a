/**
 * Web of Science's "Plain text" export (`savedrecs.txt`, `.ciw`): tagged records, one field a line
 * (`AU Kowalski, A`), a field's further lines indented by three spaces, `ER` ending a record and
 * `EF` the file (after `FN` and `VR` lines). Read as one sheet whose header row is the tags met, in
 * the order WoS's Excel export has its columns (unknown tags after), so the headers are named as in
 * that export (headerNames) and the same stages read it as any other sheet.
 */
import { readFile } from 'node:fs/promises';
import { guessEncoding } from './csv.ts';
import { InvalidFileError } from './errors.ts';
import type { ParsedRow, ReadProgress } from './types.ts';
import { WOS_TAG_NAMES } from './wos-tags.ts';

/**
 * Tags whose lines are items of a list (one author, address or reference a line), joined as WoS's
 * Excel export joins them, with `; `. Any other field's lines are one text wrapped, joined with a space.
 */
const LIST_TAGS: ReadonlySet<string> = new Set(['AU', 'AF', 'BA', 'BF', 'BE', 'CA', 'GP', 'C1', 'C3', 'CR']);

/** Most bytes of a plain-text export read (WoS hands out at most 1,000 full records a file). */
export const MAX_WOS_TEXT_BYTES = 256 * 1024 * 1024;

const TAG_LINE = /^([A-Z][A-Z0-9]) (.*)$/;
const TAG_ALONE = /^([A-Z][A-Z0-9])$/;

/**
 * Every record of a WoS plain-text export as rows of one sheet: the header row (the tags), then one
 * row a record, each cell its field's lines joined.
 *
 * @param filePath - the stored export
 * @param sheetName - the sheet's name (the file's)
 * @param progress - where bytes read are counted
 * @returns the header row, then the records, row numbers counting from 1
 * @throws InvalidFileError for a file past MAX_WOS_TEXT_BYTES or without a record
 */
export async function* readWosText(
  filePath: string,
  sheetName: string,
  progress: ReadProgress,
): AsyncGenerator<ParsedRow> {
  const bytes = await readFile(filePath);
  if (bytes.length > MAX_WOS_TEXT_BYTES)
    throw new InvalidFileError(
      `This Web of Science export is larger than ${MAX_WOS_TEXT_BYTES / 2 ** 20} MB; export fewer records a file.`,
      'unsafe',
    );
  progress.bytesRead = bytes.length;
  const { encoding } = guessEncoding(bytes, true);
  const text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
  const records = parseRecords(text);
  if (!records.length) throw new InvalidFileError('File is empty', 'empty');
  const tags = columnOrder(records);
  yield { sheet: sheetName, rowNumber: 1, cells: tags };
  let rowNumber = 1;
  for (const record of records) {
    rowNumber++;
    yield {
      sheet: sheetName,
      rowNumber,
      cells: tags.map((t) => (record.get(t) ?? []).join(LIST_TAGS.has(t) ? '; ' : ' ')),
    };
  }
}

/** The records of the text, each its fields' lines by tag (a repeated tag's lines are added on). */
function parseRecords(text: string): Map<string, string[]>[] {
  const records: Map<string, string[]>[] = [];
  let record: Map<string, string[]> | null = null;
  let field: string[] | null = null;
  for (const line of text.split(/\r?\n|\r/)) {
    const tagged = TAG_LINE.exec(line) ?? TAG_ALONE.exec(line);
    if (tagged) {
      const [, tag, value = ''] = tagged;
      if (tag === 'ER') {
        if (record) records.push(record);
        record = null;
        field = null;
        continue;
      }
      if (tag === 'FN' || tag === 'VR' || tag === 'EF') continue;
      record ??= new Map();
      field = record.get(tag!) ?? [];
      record.set(tag!, field);
      if (value.trim()) field.push(value.trim());
    } else if (line.startsWith('   ') && field) {
      if (line.trim()) field.push(line.trim());
    }
  }
  if (record?.size) records.push(record); // the last record without its ER
  return records;
}

/** The tags of the records: those WoS's Excel export has, in its order, then others as met. */
function columnOrder(records: Map<string, string[]>[]): string[] {
  const met = new Set<string>();
  for (const r of records) for (const tag of r.keys()) met.add(tag);
  const known = Object.keys(WOS_TAG_NAMES).filter((t) => met.has(t));
  return [...known, ...[...met].filter((t) => !Object.hasOwn(WOS_TAG_NAMES, t))];
}
