import chardet from 'chardet';
import { parse } from 'fast-csv';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import type { ParsedRow, ReadProgress } from './types.ts';
import { countingReadStream } from './counting-stream.ts';
import { LimitError, SHEET_LIMITS, count } from './limits.ts';
import { isWosTagRow } from './wos-tags.ts';

/**
 * A text encoding by its WHATWG name, as `TextDecoder` reports it (`utf-8`, `utf-16le`, `gb18030`,
 * `shift_jis`, `windows-1250`, `iso-8859-2`, …). Every encoding but UTF-16 keeps ASCII bytes as
 * they are, and no multi-byte character of them contains a line break, space, tab or quote byte.
 */
export type Encoding = string;

/** How a file's encoding was chosen, and how sure the choice is (0–100). */
export interface EncodingGuess {
  encoding: Encoding;
  /**
   * `bom`: a byte order mark; `utf-8`: the bytes are valid UTF-8; `utf-16`: UTF-16 without a BOM,
   * known by its zero bytes (utf16ByZeros); `detector`: chardet's statistics (or, for a short East
   * Asian sample, the characters a multi-byte reading gives).
   */
  method: 'bom' | 'utf-8' | 'utf-16' | 'detector' | 'chosen';
  /** 100 for a BOM or valid UTF-8; otherwise the detector's confidence in its best guess. */
  confidence: number;
  /** The detector's name for it when it differs (`ISO-8859-1`, decoded as its superset `windows-1252`). */
  detected?: string;
  /** Characters of the sample that look misread (garbledCharacters); absent when none. */
  garbled?: number;
}

/** Bytes of a file read to choose its encoding and delimiter. */
const SNIFF_BYTES = 64 * 1024;

/**
 * True when `bytes` decode as `encoding` without an invalid sequence. With `cut` (a sample that
 * stopped wherever the read did) the last character may be incomplete: the bytes decode when they
 * do without their last 0, 1, 2 or 3 bytes, whichever ends on a whole character. (Cutting a fixed
 * 3 bytes split 2 in 3 of the samples of CJK text instead, read them as Windows-1252 and garbled
 * every cell.)
 */
function decodes(bytes: Buffer, encoding: string, cut: boolean): boolean {
  const decoder = new TextDecoder(encoding, { fatal: true });
  for (let drop = 0; drop <= (cut ? 3 : 0); drop++) {
    try {
      decoder.decode(bytes.subarray(0, Math.max(0, bytes.length - drop)));
      return true;
    } catch {
      // an invalid sequence, or one cut short: try ending a byte earlier
    }
  }
  return false;
}

/**
 * The encoding of a file whose first bytes are `head` (`whole`: they are the whole file): a BOM
 * decides; bytes that are valid UTF-8 are UTF-8; otherwise chardet's most likely encoding that the
 * platform's `TextDecoder` has and that decodes the bytes without error (GB18030 for a CNKI export,
 * Shift_JIS, Windows-1250/1251, ISO-8859-2, …), else Windows-1252, which decodes any byte.
 *
 * @param head - the file's first bytes
 * @param whole - they are the whole file
 * @returns the encoding, how it was chosen and how sure
 */
export function guessEncoding(head: Buffer, whole: boolean): EncodingGuess {
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', method: 'bom', confidence: 100 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', method: 'bom', confidence: 100 };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', method: 'bom', confidence: 100 };
  const utf16 = utf16ByZeros(head);
  if (utf16) return { encoding: utf16, method: 'utf-16', confidence: 100 };
  // A multi-byte sequence may be cut at the end of a sample.
  if (decodes(head, 'utf-8', !whole)) return { encoding: 'utf-8', method: 'utf-8', confidence: 100 };
  const matches = chardet.analyse(head);
  // A short sample of Japanese, Chinese or Korean text gives the detector too little to go on (a
  // 99-byte Shift_JIS list came out as windows-1252 at 32 %): when a multi-byte reading decodes
  // cleanly into words of East Asian characters, it is that.
  if (isLatinGuess(matches[0]?.name)) {
    const cjk = eastAsianReading(head, whole);
    if (cjk) return { encoding: cjk, method: 'detector', confidence: CJK_READING_CONFIDENCE };
  }
  for (const match of matches) {
    let encoding: string;
    try {
      encoding = new TextDecoder(match.name).encoding;
    } catch {
      continue; // a name the platform does not decode (UTF-32, ISO-2022-CN…)
    }
    if (encoding.startsWith('utf-16') || !decodes(head, encoding, !whole)) continue;
    return {
      encoding,
      method: 'detector',
      confidence: match.confidence,
      ...(encoding !== match.name.toLowerCase() ? { detected: match.name } : {}),
    };
  }
  return { encoding: 'windows-1252', method: 'detector', confidence: 0 };
}

/**
 * UTF-16 without a byte order mark (Excel's and Web of Science's "Unicode text" saved by some
 * tools): text that is mostly ASCII has a zero in every other byte, the high byte of each unit. Two
 * in five units zero on one side and almost none on the other says which order; other text has no
 * zero bytes at all.
 *
 * @param head - the file's first bytes
 * @returns `utf-16le` or `utf-16be`, or null
 */
export function utf16ByZeros(head: Buffer): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(head.length, 4096) & ~1;
  if (n < 4) return null;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  const units = n / 2;
  if (odd >= 0.4 * units && even <= 0.02 * units) return 'utf-16le';
  if (even >= 0.4 * units && odd <= 0.02 * units) return 'utf-16be';
  return null;
}

/** Confidence given to an East Asian reading found by its characters rather than by the detector. */
const CJK_READING_CONFIDENCE = 60;

/** Multi-byte East Asian encodings, in the order they are tried (GB18030 maps nearly any bytes: last). */
const EAST_ASIAN_ENCODINGS = ['shift_jis', 'euc-jp', 'euc-kr', 'big5', 'gb18030'] as const;

/**
 * Whether chardet's best guess is a single-byte Latin encoding (or it has none): the guesses a
 * short East Asian sample gets. In Latin text the bytes past ASCII are lone accented letters, which
 * eastAsianReading tells from words; Cyrillic, Greek or Hebrew text is all such bytes, and Korean's
 * permissive decoder would read it as words, so those guesses are kept.
 */
function isLatinGuess(name: string | undefined): boolean {
  return !name || /^(windows-125[02479]|iso-8859-(1|2|3|4|9|10|13|14|15|16))$/i.test(name);
}

/**
 * Kana, CJK ideographs, Hangul, CJK punctuation and full-width forms. Half-width katakana is left
 * out: single-byte Latin-2 letters (`ł`, `ą`, `ż`) read as Shift_JIS become exactly those.
 */
const EAST_ASIAN_CHARACTER = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff60]/u;

/**
 * The multi-byte East Asian encoding that reads `head` as East Asian text, if one does: it decodes
 * without an invalid sequence, nine in ten of its non-ASCII characters are East Asian, and most of
 * them stand beside another (words, not the lone accented letters of a European text).
 */
function eastAsianReading(head: Buffer, whole: boolean): Encoding | null {
  for (const encoding of EAST_ASIAN_ENCODINGS) {
    if (!decodes(head, encoding, !whole)) continue;
    const chars = [...new TextDecoder(encoding).decode(head)];
    let wide = 0;
    let eastAsian = 0;
    let inWords = 0;
    chars.forEach((c, i) => {
      if (c.charCodeAt(0) < 0x80) return;
      wide++;
      if (EAST_ASIAN_CHARACTER.test(c)) eastAsian++;
      if ((chars[i - 1] ?? '\0') >= '\u0080' || (chars[i + 1] ?? '\0') >= '\u0080') inWords++;
    });
    if (wide >= 2 && eastAsian >= 0.9 * wide && inWords >= 0.6 * wide) return encoding;
  }
  return null;
}

/**
 * Reads the first bytes of a file to choose its encoding (see guessEncoding); `sample` is them decoded.
 *
 * @param filePath - the CSV file
 * @param chosen - the encoding a person chose for the file (method `chosen`), instead of a guess
 * @returns the encoding guess and the first bytes decoded
 * @throws RangeError for a chosen encoding `TextDecoder` does not know
 */
export async function sniff(
  filePath: string,
  chosen?: Encoding,
): Promise<EncodingGuess & { sample: string }> {
  const fh = await open(filePath, 'r');
  const head = Buffer.alloc(SNIFF_BYTES);
  let n: number;
  try {
    ({ bytesRead: n } = await fh.read(head, 0, head.length, 0));
  } finally {
    await fh.close();
  }
  const buf = head.subarray(0, n);
  const guess: EncodingGuess = chosen
    ? { encoding: new TextDecoder(chosen).encoding, method: 'chosen', confidence: 100 }
    : guessEncoding(buf, n < SNIFF_BYTES);
  const sample = new TextDecoder(guess.encoding).decode(buf);
  const garbled = garbledCharacters(sample);
  return { ...guess, ...(garbled ? { garbled } : {}), sample };
}

/** What a UTF-8 continuation byte (0x80–0xBF) reads as in Windows-1252 (or Latin-1). */
const CONTINUATION =
  '\\u0080-\\u00bf\\u0152\\u0153\\u0160\\u0161\\u0178\\u017d\\u017e\\u0192\\u02c6\\u02dc\\u2013\\u2014\\u2018-\\u201e\\u2020-\\u2022\\u2026\\u2030\\u2039\\u203a\\u20ac\\u2122';

/**
 * UTF-8 read as a single-byte encoding: the lead byte of a European letter (`Â`, `Ã`, `Ä`, `Å`:
 * U+0080–U+017F) followed by a continuation byte's character (`MÃ¼ller`, `Å‚`), or `â€` and one
 * more (`â€™`, the quotes and dashes). Other accented letters before such a character are left
 * alone: Czech `Tomáš` is a name, not a misreading.
 */
const UTF8_AS_SINGLE_BYTE = new RegExp(
  `[\\u00c2-\\u00c5][${CONTINUATION}]|\\u00e2\\u20ac[${CONTINUATION}]`,
  'g',
);

/**
 * Characters of decoded text that say it was misread: replacement characters (bytes the encoding
 * has no character for) and UTF-8 read as a single-byte encoding (UTF8_AS_SINGLE_BYTE), which
 * also finds a file that was garbled before it was saved.
 *
 * @param text - decoded text
 * @returns how many such characters (or pairs) it holds
 */
export function garbledCharacters(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) n++;
  return n + (text.match(UTF8_AS_SINGLE_BYTE)?.length ?? 0);
}

/**
 * The delimiter (comma, semicolon, tab or pipe) that occurs most in the first non-empty line, outside quotes.
 *
 * @param sample - the start of the file, decoded
 * @returns the delimiter, comma when none occurs
 */
export function detectDelimiter(sample: string): string {
  const line =
    sample
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim()) ?? '';
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
    ['|', 0],
  ]);
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, c] of counts) if (c > counts.get(best)!) best = d;
  return best;
} /**
 * @param encoding - the file's encoding
 * @returns a transform from its bytes to UTF-8 text
 */
export function decoder(encoding: Encoding): Transform {
  const td = new TextDecoder(encoding); // strips a BOM by default
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      cb(null, td.decode(chunk, { stream: true }));
    },
    flush(cb: TransformCallback) {
      cb(null, td.decode());
    },
  });
}

/**
 * True when every whole record of the sample after the header has one field more than the header,
 * an empty one: a tab ends each record, as Web of Science's tab-delimited export writes them.
 * CustomSeparated would keep that tab in the last field (`2039\t`), so such a file goes the
 * JavaScript way, which drops the empty field. (A record whose last field is merely empty has as
 * many fields as the header, and stays with the engine.)
 *
 * @param head - the file's first bytes, decoded
 * @returns whether a tab ends every whole record after the header
 */
export function endsRecordsWithTab(head: string): boolean {
  const lines = head.replace(/^\uFEFF/, '').split(/\r?\n/);
  const at = lines.findIndex((l) => l.trim() !== '');
  if (at < 0) return false;
  const width = lines[at]!.split('\t').length;
  // The sample's last line may be cut short: only whole lines count.
  const records = lines.slice(at + 1, -1).filter((l) => l.trim() !== '');
  return (
    records.length > 0 &&
    records.every((l) => {
      const fields = l.split('\t');
      return fields.length === width + 1 && fields[width] === '';
    })
  );
}

/**
 * Whether tab-delimited text is Web of Science's export, which never quotes a field (a title may
 * start with `"`): its records end with a tab (endsRecordsWithTab), or its header row is WoS tags.
 *
 * @param head - the file's first bytes, decoded
 * @returns whether to read the file without quoting
 */
export function isUnquotedWosExport(head: string): boolean {
  const first = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return endsRecordsWithTab(head) || isWosTagRow(first.split('\t'));
}

/**
 * Fails the read once a field (quoted or not) holds more than `max` characters, counting in one
 * pass: fast-csv slows with the square of a cell's length (a 100 MB quoted cell kept it busy for
 * hours), so a cell past the cap is refused before the parser meets it. Quotes toggle the state
 * (`""` toggles it twice); the delimiter and line breaks outside quotes end a field.
 *
 * @param delimiter - the file's delimiter
 * @param quoted - whether `"` quotes fields (Web of Science's tab-delimited export never does)
 * @param max - the most characters a field may hold
 * @returns a transform of decoded text that passes it on unchanged
 */
export function fieldLengthGuard(delimiter: string, quoted: boolean, max: number): Transform {
  let inQuotes = false;
  let length = 0;
  const d = delimiter.charCodeAt(0);
  return new Transform({
    transform(chunk: Buffer | string, _enc: BufferEncoding, cb: TransformCallback) {
      // The decoder's strings arrive as their UTF-8 bytes, each chunk whole characters.
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (quoted && c === 34) inQuotes = !inQuotes;
        else if (!inQuotes && (c === d || c === 10 || c === 13)) {
          length = 0;
          continue;
        }
        if (++length > max) {
          cb(new LimitError(`a cell holds more than ${count(max)} characters`));
          return;
        }
      }
      cb(null, chunk);
    },
  });
}

/**
 * Streams a CSV file's records (RFC 4180 quoting; ragged rows kept as they are) as one sheet named
 * `sheetName`. Row numbers count records from 1. A cell past SHEET_LIMITS.maxTextCellChars is
 * refused (fieldLengthGuard).
 *
 * @param filePath - the CSV file
 * @param sheetName - the name its one sheet gets
 * @param progress - where bytes read are counted
 * @param chosenEncoding - the encoding a person chose, instead of the guess
 * @returns the records as rows
 * @throws InvalidFileError for a file that cannot be read as CSV; LimitError for a cell past the cap
 */
export async function* readCsv(
  filePath: string,
  sheetName: string,
  progress: ReadProgress,
  chosenEncoding?: Encoding,
): AsyncGenerator<ParsedRow> {
  const { encoding, sample } = await sniff(filePath, chosenEncoding);
  const delimiter = detectDelimiter(sample);
  const unquoted = delimiter === '\t' && isUnquotedWosExport(sample);
  const parser = parse<string[], string[]>({
    delimiter,
    ignoreEmpty: false,
    ...(unquoted && { quote: null }),
  });
  const decoded = countingReadStream(filePath, progress).pipe(decoder(encoding));
  const source = decoded.pipe(fieldLengthGuard(delimiter, !unquoted, SHEET_LIMITS.maxTextCellChars));
  decoded.on('error', (e) => source.destroy(e));
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);
  let rowNumber = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    rowNumber++;
    yield { sheet: sheetName, rowNumber, cells: record };
  }
}
