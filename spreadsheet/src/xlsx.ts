import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { SSF } from '@e965/xlsx';
import type { Entry, ZipFile } from 'yauzl';
import type { ParsedRow, ReadProgress } from './types.ts';
import { cellText } from './cell-text.ts';
import { shownText } from './number-format.ts';
import { XmlScanner, type XmlAttributes, type XmlHandlers } from './xml-scanner.ts';
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

/** What every worksheet needs from the rest of the workbook. */
interface WorkbookParts {
  /** Worksheets in workbook order; `target` is the part's path in the zip (null: no relationship). */
  sheets: { name: string; target: string | null }[];
  sharedStrings: string[];
  /** Number format code of each cell style (the `s` attribute of a cell), by index. */
  styleFormats: string[];
  date1904: boolean;
}

/** A zip part name as looked up: no leading slash, forward slashes, case-insensitive. */
const partKey = (name: string) => name.replaceAll('\\', '/').replace(/^\/+/, '').toLowerCase();
/** An XML name without its namespace prefix (`x:row` → `row`). */
const local = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

async function readWorkbookParts(zip: ZipFile, parts: Map<string, Entry>): Promise<WorkbookParts> {
  const rootRels = await readRelationships(zip, parts, '_rels/.rels', '');
  const workbookPath = rootRels.find((r) => r.type === 'officeDocument')?.target ?? 'xl/workbook.xml';
  const workbookEntry = parts.get(partKey(workbookPath));
  if (!workbookEntry) throw new Error('its workbook part (xl/workbook.xml) is missing');

  const dir = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
  const relsPath = `${dir}_rels/${workbookPath.slice(dir.length)}.rels`;
  const rels = await readRelationships(zip, parts, relsPath, dir);
  const byId = new Map(rels.map((r) => [r.id, r]));

  const listed: { name: string; rId: string }[] = [];
  let date1904 = false;
  await parseXml(await openEntry(zip, workbookEntry), {
    open(tagName, attributes) {
      const name = local(tagName);
      if (name === 'sheet') {
        const rId = attributes.entries().find(([k]) => local(k) === 'id' && k !== 'id')?.[1];
        listed.push({ name: attributes.get('name') ?? `Sheet${listed.length + 1}`, rId: rId ?? '' });
      } else if (name === 'workbookPr') {
        const v = attributes.get('date1904');
        date1904 = v === '1' || v === 'true';
      }
    },
  });
  const sheets: WorkbookParts['sheets'] = [];
  listed.forEach((s, i) => {
    const rel = byId.get(s.rId);
    // Chart, dialog and macro sheets hold no cells; a workbook without relationships for its
    // sheets gets the conventional part names.
    if (rel && rel.type !== 'worksheet') return;
    sheets.push({
      name: s.name,
      target: rel?.target ?? (rels.length ? null : `${dir}worksheets/sheet${i + 1}.xml`),
    });
  });
  const partFor = (type: string, fallback: string) =>
    rels.find((r) => r.type === type)?.target ?? `${dir}${fallback}`;
  const sharedStringsEntry = parts.get(partKey(partFor('sharedStrings', 'sharedStrings.xml')));
  const stylesEntry = parts.get(partKey(partFor('styles', 'styles.xml')));
  return {
    sheets,
    date1904,
    sharedStrings: sharedStringsEntry ? await readSharedStrings(zip, sharedStringsEntry) : [],
    styleFormats: stylesEntry ? await readStyleFormats(zip, stylesEntry) : [],
  };
}

interface Relationship {
  id: string;
  /** The last segment of the relationship type (`worksheet`, `sharedStrings`, …). */
  type: string;
  /** Path of the target part in the zip. */
  target: string;
}

async function readRelationships(
  zip: ZipFile,
  parts: Map<string, Entry>,
  relsPath: string,
  baseDir: string,
): Promise<Relationship[]> {
  const entry = parts.get(partKey(relsPath));
  if (!entry) return [];
  const rels: Relationship[] = [];
  await parseXml(await openEntry(zip, entry), {
    open(name, attributes) {
      if (local(name) !== 'Relationship' || attributes.get('TargetMode') === 'External') return;
      const type = (attributes.get('Type') ?? '').split('/').pop();
      const target = attributes.get('Target') ?? '';
      if (!type || !target) return;
      rels.push({ id: attributes.get('Id') ?? '', type, target: resolvePart(baseDir, target) });
    },
  });
  return rels;
}

/** A relationship target resolved against the directory of its source part. */
function resolvePart(baseDir: string, target: string): string {
  const segments = target.startsWith('/') ? [] : baseDir.split('/').filter(Boolean);
  for (const s of target.split('/')) {
    if (s === '..') segments.pop();
    else if (s && s !== '.') segments.push(s);
  }
  return segments.join('/');
}

/** Every shared string, rich text runs joined, phonetic guides (`rPh`) left out. */
async function readSharedStrings(zip: ZipFile, entry: Entry): Promise<string[]> {
  const strings: string[] = [];
  const text = new RunText();
  await parseXml(await openEntry(zip, entry), {
    open(name) {
      if (local(name) === 'si') text.start();
      else text.open(local(name));
    },
    text: (t) => text.text(t),
    close(name) {
      if (local(name) === 'si') strings.push(text.end());
      else text.close(local(name));
    },
  });
  return strings;
}

/** The number format code of each cell style (`cellXfs`), built-in ids resolved with SSF's table. */
async function readStyleFormats(zip: ZipFile, entry: Entry): Promise<string[]> {
  const custom = new Map<number, string>();
  const ids: number[] = [];
  let inCellXfs = false;
  await parseXml(await openEntry(zip, entry), {
    open(tagName, attributes) {
      const name = local(tagName);
      if (name === 'numFmt')
        custom.set(Number(attributes.get('numFmtId')), attributes.get('formatCode') ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) ids.push(Number(attributes.get('numFmtId') ?? 0));
    },
    close(name) {
      if (local(name) === 'cellXfs') inCellXfs = false;
    },
  });
  const builtIn = SSF.get_table() as Record<number, string>;
  return ids.map((id) => custom.get(id) ?? builtIn[id] ?? 'General');
}

/** Collects the text of `t` elements (directly or in rich text runs), leaving out phonetic guides. */
class RunText {
  #parts: string[] = [];
  #inT = false;
  #inPhonetic = false;
  start(): void {
    this.#parts = [];
    this.#inT = false;
    this.#inPhonetic = false;
  }
  open(name: string): void {
    if (name === 't') this.#inT = !this.#inPhonetic;
    else if (name === 'rPh') this.#inPhonetic = true;
  }
  text(t: string): void {
    if (this.#inT) this.#parts.push(t);
  }
  close(name: string): void {
    if (name === 't') this.#inT = false;
    else if (name === 'rPh') this.#inPhonetic = false;
  }
  end(): string {
    const s = this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join('');
    this.#parts = [];
    return s;
  }
}

/**
 * Turns a worksheet part's XML, written chunk by chunk, into rows: `take()` hands over the rows
 * completed so far. Cells are placed by their reference (`r="C7"`), or after the previous cell when
 * it is missing.
 */
class WorksheetRows {
  readonly #parser = new XmlScanner({
    open: (name, attributes) => this.#open(name, attributes),
    text: (t) => {
      if (this.#inValue) this.#value.push(t);
      else if (this.#inInline) this.#inline.text(t);
    },
    close: (name) => this.#close(local(name)),
  });
  #ready: ParsedRow[] = [];
  #inSheetData = false;
  #rowNumber = 0;
  #cells: string[] = [];
  #column = 0;
  /** The current cell's type (`t`) and style (`s`); its value text and inline string. */
  #type = '';
  #style = 0;
  #value: string[] = [];
  #inValue = false;
  #inInline = false;
  readonly #inline = new RunText();

  constructor(
    readonly sheet: string,
    private readonly book: WorkbookParts,
  ) {}

  write(chunk: string): void {
    this.#parser.write(chunk);
  }

  close(): void {
    this.#parser.close();
  }

  take(): ParsedRow[] {
    const rows = this.#ready;
    this.#ready = [];
    return rows;
  }

  #open(tagName: string, attributes: XmlAttributes): void {
    const name = local(tagName);
    if (!this.#inSheetData) {
      if (name === 'sheetData') this.#inSheetData = true;
      return;
    }
    switch (name) {
      case 'row': {
        const r = Number(attributes.get('r'));
        this.#rowNumber = Number.isInteger(r) && r > 0 ? r : this.#rowNumber + 1;
        this.#cells = [];
        this.#column = 0;
        break;
      }
      case 'c': {
        const ref = attributes.get('r');
        this.#column = ref ? columnOf(ref) : this.#column + 1;
        this.#type = attributes.get('t') ?? '';
        const style = attributes.get('s');
        this.#style = style ? Number(style) : 0;
        this.#value = [];
        break;
      }
      case 'v':
        this.#inValue = true;
        break;
      case 'is':
        this.#inInline = true;
        this.#inline.start();
        break;
      default:
        if (this.#inInline) this.#inline.open(name);
    }
  }

  #close(name: string): void {
    if (!this.#inSheetData) return;
    switch (name) {
      case 'v':
        this.#inValue = false;
        break;
      case 'is':
        this.#inInline = false;
        this.#value = [this.#inline.end()];
        break;
      case 'c': {
        const text = this.#cellText();
        if (text !== '') {
          for (let i = this.#cells.length; i < this.#column - 1; i++) this.#cells.push('');
          this.#cells[this.#column - 1] = text;
        }
        break;
      }
      case 'row':
        if (this.#cells.length) {
          this.#ready.push({ sheet: this.sheet, rowNumber: this.#rowNumber, cells: this.#cells });
        }
        this.#cells = [];
        break;
      case 'sheetData':
        this.#inSheetData = false;
        break;
      default:
        if (this.#inInline) this.#inline.close(name);
    }
  }

  #cellText(): string {
    const raw = this.#value.length === 1 ? this.#value[0]! : this.#value.join('');
    switch (this.#type) {
      case 's':
        return this.book.sharedStrings[Number(raw)] ?? '';
      case 'inlineStr':
      case 'str':
      case 'e':
        return raw;
      case 'b':
        return raw === '' ? '' : cellText(raw === '1' || raw === 'true');
      case 'd':
        return raw === '' ? '' : cellText(new Date(raw));
      default: {
        if (raw === '') return '';
        const n = Number.parseFloat(raw);
        if (Number.isNaN(n)) return raw;
        const format = this.book.styleFormats[this.#style];
        if (format && format !== 'General' && isDateFormat(format)) {
          return cellText(serialToDate(n, this.book.date1904));
        }
        return shownText(n, format);
      }
    }
  }
}

const dateFormats = new Map<string, boolean>();
/** True for a number format that shows a date or time (cached: a sheet has a handful of formats). */
function isDateFormat(format: string): boolean {
  let is = dateFormats.get(format);
  if (is === undefined) {
    is = SSF.is_date(format) === true;
    dateFormats.set(format, is);
  }
  return is;
}

/** An Excel date serial (days since 1899-12-30, or 1904-01-01) as a UTC date, to the millisecond. */
function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/** The 1-based column of a cell reference (`C7` → 3, `XFD1` → 16384). */
export function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) column = column * 26 + (c - 64);
    else if (c >= 97 && c <= 122) column = column * 26 + (c - 96);
    else break;
  }
  return column;
}

/** Reads a whole XML part as a stream, handing the parts that matter to `handlers`. */
async function parseXml(stream: Readable, handlers: XmlHandlers): Promise<void> {
  const parser = new XmlScanner(handlers);
  for await (const chunk of textOf(stream)) parser.write(chunk);
  parser.close();
}

/** A part's decompressed bytes as UTF-8 text, chunk by chunk (characters never split). */
function textOf(stream: Readable): AsyncIterable<string> {
  stream.setEncoding('utf8');
  return stream as AsyncIterable<string>;
}
