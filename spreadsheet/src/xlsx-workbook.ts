/** The parts of an xlsx workbook every worksheet needs: sheet list, shared strings, number formats. */
import type { Readable } from 'node:stream';
import { SSF } from '@e965/xlsx';
import type { Entry, ZipFile } from 'yauzl';
import { count, LimitError, SHEET_LIMITS } from './limits.ts';
import { XmlScanner, type XmlHandlers } from './xml-scanner.ts';
import { openEntry } from './zip-scan.ts';

/** What every worksheet needs from the rest of the workbook. */
export interface WorkbookParts {
  /** Worksheets in workbook order; `target` is the part's path in the zip (null: no relationship). */
  sheets: { name: string; target: string | null }[];
  sharedStrings: string[];
  /** Number format code of each cell style (the `s` attribute of a cell), by index. */
  styleFormats: string[];
  date1904: boolean;
}

/** A zip part name as looked up: no leading slash, forward slashes, case-insensitive. */
export const partKey = (name: string) => name.replaceAll('\\', '/').replace(/^\/+/, '').toLowerCase();
/** An XML name without its namespace prefix (`x:row` → `row`). */
export const local = (name: string) => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}; /**
 * @param zip - the workbook, opened
 * @param parts - its entries by name
 * @returns the sheets, their order and files, the shared strings and the number formats
 */
export async function readWorkbookParts(zip: ZipFile, parts: Map<string, Entry>): Promise<WorkbookParts> {
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
  let chars = 0;
  await parseXml(await openEntry(zip, entry), {
    open(name) {
      if (local(name) === 'si') text.start();
      else text.open(local(name));
    },
    text: (t) => {
      chars += t.length;
      if (chars > SHEET_LIMITS.maxSharedStringChars) {
        throw new LimitError(
          `its shared strings hold more than ${count(SHEET_LIMITS.maxSharedStringChars)} characters together`,
        );
      }
      text.text(t);
    },
    close(name) {
      if (local(name) !== 'si') return text.close(local(name));
      if (strings.length >= SHEET_LIMITS.maxSharedStrings) {
        throw new LimitError(`it has more than ${count(SHEET_LIMITS.maxSharedStrings)} shared strings`);
      }
      strings.push(text.end());
    },
  });
  return strings;
}

/** The number format code of each cell style (`cellXfs`), built-in ids resolved with SSF's table. */
async function readStyleFormats(zip: ZipFile, entry: Entry): Promise<string[]> {
  const custom = new Map<number, string>();
  const ids: number[] = [];
  let inCellXfs = false;
  const tooMany = (what: string) =>
    new LimitError(`its styles hold more than ${count(SHEET_LIMITS.maxCellFormats)} ${what}, Excel's limit`);
  await parseXml(await openEntry(zip, entry), {
    open(tagName, attributes) {
      const name = local(tagName);
      if (name === 'numFmt') {
        if (custom.size >= SHEET_LIMITS.maxCellFormats) throw tooMany('number formats');
        custom.set(Number(attributes.get('numFmtId')), attributes.get('formatCode') ?? '');
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        if (ids.length >= SHEET_LIMITS.maxCellFormats) throw tooMany('cell formats');
        ids.push(Number(attributes.get('numFmtId') ?? 0));
      }
    },
    close(name) {
      if (local(name) === 'cellXfs') inCellXfs = false;
    },
  });
  const builtIn = SSF.get_table() as Record<number, string>;
  return ids.map((id) => custom.get(id) ?? builtIn[id] ?? 'General');
}

/** Collects the text of `t` elements (directly or in rich text runs), leaving out phonetic guides. */
export class RunText {
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
 * Reads a whole XML part as a stream, handing the parts that matter to `handlers`.
 *
 * @param stream - the part's decompressed bytes
 * @param handlers - what to do with tags and text
 * @throws Error for malformed XML
 */
export async function parseXml(stream: Readable, handlers: XmlHandlers): Promise<void> {
  const parser = new XmlScanner(handlers);
  for await (const chunk of textOf(stream)) parser.write(chunk);
  parser.close();
}

/**
 * A part's decompressed bytes as UTF-8 text, chunk by chunk (characters never split).
 *
 * @param stream - the part's decompressed bytes
 * @returns the text, chunk by chunk
 */
export function textOf(stream: Readable): AsyncIterable<string> {
  stream.setEncoding('utf8');
  return stream as AsyncIterable<string>;
}
