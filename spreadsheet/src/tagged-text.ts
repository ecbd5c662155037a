/**
 * Tagged-record exports, one field a line, read as one sheet whose header row is the tags met and
 * one row a record (headerNames then names the tags as the source names its columns):
 * - Web of Science "Plain text" (`savedrecs.txt`, `.ciw`): `AU Kowalski, A`, a field's further lines
 *   indented by three spaces, `ER` ending a record, after `FN` and `VR` lines;
 * - RIS (`.ris`, from Scopus, WoS, PubMed, Dimensions, EndNote…): `AU  - Kowalski, A.`, `TY` starting
 *   a record and `ER` ending it, a tag repeated for each author or keyword;
 * - PubMed MEDLINE (`.nbib`, `.txt`): `FAU - Kowalski, Anna`, tags padded to four characters, further
 *   lines indented by six spaces, `PMID` starting a record.
 * The file is streamed twice: once to learn the tags, once to yield the rows, so memory holds one
 * record at a time whatever the file's size.
 */
import { createReadStream } from 'node:fs';
import { sniff } from './csv.ts';
import { InvalidFileError } from './errors.ts';
import { LimitError, SHEET_LIMITS, count } from './limits.ts';
import type { ParsedRow, ReadProgress } from './types.ts';
import { WOS_TAG_NAMES } from './wos-tags.ts';

/** Which tagged-record export a file is. */
export type TaggedDialect = 'wos' | 'ris' | 'medline';

interface Dialect {
  /** A field's first line: its tag, then its value (maybe absent). */
  field: RegExp;
  /** The tag that starts a record (a record also starts at the first field after an end). */
  start?: string;
  /** The tag that ends a record. */
  end?: string;
  /** Tags outside records (file headers). */
  skip: ReadonlySet<string>;
  /** A further line of the field before it: its text, or null when the line is not one. */
  continuation: (line: string) => string | null;
  /** Whether a further line adds an item to the field (WoS lists) rather than continuing its last. */
  newItem: (tag: string) => boolean;
  /** How a field's items are joined into its cell. */
  joiner: (tag: string) => string;
  /** The columns' order from the tags met, in the order met. */
  order: (met: string[]) => string[];
}

/**
 * WoS tags whose lines are items of a list (one author, address or reference a line), joined as
 * WoS's Excel export joins them, with `; `. Any other field's lines are one text wrapped, joined
 * with a space.
 */
const WOS_LIST_TAGS: ReadonlySet<string> = new Set([
  'AU',
  'AF',
  'BA',
  'BF',
  'BE',
  'CA',
  'GP',
  'C1',
  'C3',
  'CR',
]);

const DIALECTS: Readonly<Record<TaggedDialect, Dialect>> = {
  wos: {
    field: /^([A-Z][A-Z0-9])(?: (.*))?$/,
    end: 'ER',
    skip: new Set(['FN', 'VR', 'EF']),
    continuation: (line) => (line.startsWith('   ') ? line.trim() : null),
    newItem: () => true,
    joiner: (tag) => (WOS_LIST_TAGS.has(tag) ? '; ' : ' '),
    // WoS's Excel export's order, then others as met.
    order: (met) => {
      const known = Object.keys(WOS_TAG_NAMES).filter((t) => met.includes(t));
      return [...known, ...met.filter((t) => !Object.hasOwn(WOS_TAG_NAMES, t))];
    },
  },
  ris: {
    field: /^([A-Z][A-Z0-9]) {2}-(?: (.*))?$/,
    start: 'TY',
    end: 'ER',
    skip: new Set(),
    continuation: (line) => (line.trim() ? line.trim() : null),
    newItem: () => false,
    joiner: () => '; ',
    order: (met) => met,
  },
  medline: {
    field: /^([A-Z][A-Z0-9]{1,3}) {0,3}- (.*)$/,
    start: 'PMID',
    skip: new Set(),
    continuation: (line) => (line.startsWith('      ') ? line.trim() : null),
    newItem: () => false,
    joiner: () => '; ',
    order: (met) => met,
  },
};

/** What each dialect is called in messages. */
export const TAGGED_DIALECT_NAMES: Readonly<Record<TaggedDialect, string>> = {
  wos: 'a Web of Science plain-text export',
  ris: 'an RIS file',
  medline: 'a PubMed (MEDLINE) file',
};

/**
 * Which tagged-record export a text starts as, if any: WoS plain text begins `FN …` then `VR …`;
 * RIS's first field is `TY  - …`; MEDLINE's is `PMID- …`.
 *
 * @param text - the file's first bytes, decoded
 * @returns the dialect, or null for any other text
 */
export function taggedDialectOf(text: string): TaggedDialect | null {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n|\r/)
    .filter((l) => l.trim());
  const [first = '', second = ''] = lines;
  if (/^FN [^\t]*$/.test(first) && /^VR [^\t]*$/.test(second)) return 'wos';
  if (/^TY {2}- ?\S*$/.test(first)) return 'ris';
  if (/^PMID- ?\d+\s*$/.test(first)) return 'medline';
  return null;
}

/** One record: each tag's items, in the order the tags were met. */
type TaggedRecord = Map<string, string[]>;

/** The lines of a file, decoded as `encoding`, with how many bytes have been read. */
async function* lines(filePath: string, encoding: string, progress?: ReadProgress): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  let rest = '';
  let first = true;
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
    if (progress) progress.bytesRead += (chunk as Buffer).length;
    let text = rest + decoder.decode(chunk as Buffer, { stream: true });
    if (first) text = text.replace(/^\uFEFF/, '');
    first = false;
    const parts = text.split(/\r?\n|\r(?!$)/);
    rest = parts.pop()!;
    if (rest.length > SHEET_LIMITS.maxTextCellChars * 4) {
      throw new LimitError(`a line is longer than ${count(SHEET_LIMITS.maxTextCellChars * 4)} characters`);
    }
    yield* parts;
  }
  rest += decoder.decode();
  yield* rest.replace(/\r$/, '').split(/\r?\n|\r/);
}

/** The records of a tagged file, one at a time. */
async function* records(
  filePath: string,
  encoding: string,
  dialect: Dialect,
  progress?: ReadProgress,
): AsyncGenerator<TaggedRecord> {
  let record: TaggedRecord | null = null;
  let field: string[] | null = null;
  let fieldTag = '';
  /** Characters each field of the record holds so far (its cell may hold SHEET_LIMITS.maxTextCellChars). */
  let sizes = new Map<string, number>();
  const grow = (tag: string, by: number) => {
    const before = sizes.get(tag);
    const size = before === undefined ? by : before + by + 2; // with the joiner (`; ` at most)
    if (size > SHEET_LIMITS.maxTextCellChars) {
      throw new LimitError(`a field holds more than ${count(SHEET_LIMITS.maxTextCellChars)} characters`);
    }
    sizes.set(tag, size);
  };
  for await (const line of lines(filePath, encoding, progress)) {
    const tagged = dialect.field.exec(line);
    if (tagged) {
      const [, tag = '', raw = ''] = tagged;
      const value = raw.trim();
      if (dialect.skip.has(tag)) continue;
      if (tag === dialect.end) {
        if (record?.size) yield record;
        record = null;
        field = null;
        continue;
      }
      if (tag === dialect.start && record?.size) yield record;
      if (tag === dialect.start) record = null;
      if (!record) sizes = new Map();
      record ??= new Map();
      field = record.get(tag) ?? [];
      fieldTag = tag;
      record.set(tag, field);
      if (value) {
        grow(tag, value.length);
        field.push(value);
      }
      continue;
    }
    if (!field) continue;
    const more = dialect.continuation(line);
    if (more === null) {
      // A MEDLINE record ends at a blank line; RIS and WoS wait for their end tag.
      if (!line.trim() && !dialect.end) {
        if (record?.size) yield record;
        record = null;
        field = null;
      }
      continue;
    }
    if (!more) continue;
    grow(fieldTag, more.length);
    if (dialect.newItem(fieldTag) || !field.length) field.push(more);
    else field[field.length - 1] += ` ${more}`;
  }
  if (record?.size) yield record; // the last record without its end
}

/**
 * Every record of a tagged-record export as rows of one sheet: the header row (the tags, in the
 * dialect's order), then one row a record, each cell its field's items joined.
 *
 * @param filePath - the stored export
 * @param sheetName - the sheet's name (the file's)
 * @param dialect - which export it is (taggedDialectOf)
 * @param progress - where bytes read are counted (the second pass)
 * @param chosenEncoding - the encoding a person chose, instead of the guess
 * @returns the header row, then the records, row numbers counting from 1
 * @throws InvalidFileError for a file without a record; LimitError past Excel's row or cell limits
 */
export async function* readTaggedText(
  filePath: string,
  sheetName: string,
  dialect: TaggedDialect,
  progress: ReadProgress,
  chosenEncoding?: string,
): AsyncGenerator<ParsedRow> {
  const d = DIALECTS[dialect];
  const { encoding } = await sniff(filePath, chosenEncoding);
  const met = new Set<string>();
  let n = 0;
  for await (const record of records(filePath, encoding, d)) {
    n++;
    for (const tag of record.keys()) met.add(tag);
  }
  if (!n) throw new InvalidFileError('File is empty', 'empty');
  if (n >= SHEET_LIMITS.maxRows)
    throw new LimitError(`it holds more than ${count(SHEET_LIMITS.maxRows - 1)} records`);
  const tags = d.order([...met]);
  yield { sheet: sheetName, rowNumber: 1, cells: tags };
  let rowNumber = 1;
  for await (const record of records(filePath, encoding, d, progress)) {
    rowNumber++;
    yield {
      sheet: sheetName,
      rowNumber,
      cells: tags.map((t) => (record.get(t) ?? []).join(d.joiner(t))),
    };
  }
}
