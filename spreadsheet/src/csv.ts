import { parse } from 'fast-csv';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import type { ParsedRow, ReadProgress } from './types.ts';
import { countingReadStream } from './counting-stream.ts';

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Reads the first bytes to pick the encoding: a BOM decides; otherwise UTF-8 if valid, else Windows-1252. */
export async function sniff(filePath: string): Promise<{ encoding: Encoding; sample: string }> {
  const fh = await open(filePath, 'r');
  const head = Buffer.alloc(64 * 1024);
  let n: number;
  try {
    ({ bytesRead: n } = await fh.read(head, 0, head.length, 0));
  } finally {
    await fh.close();
  }
  const buf = head.subarray(0, n);
  let encoding: Encoding;
  if (buf[0] === 0xff && buf[1] === 0xfe) encoding = 'utf-16le';
  else if (buf[0] === 0xfe && buf[1] === 0xff) encoding = 'utf-16be';
  else {
    encoding = 'utf-8';
    try {
      // A multi-byte sequence may be cut at the end of the sample: drop up to 3 trailing bytes.
      new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, Math.max(0, n - 3)));
    } catch {
      encoding = 'windows-1252';
    }
  }
  return { encoding, sample: new TextDecoder(encoding).decode(buf) };
}

/** The delimiter (comma, semicolon, tab or pipe) that occurs most in the first non-empty line, outside quotes. */
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
}

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
 * Streams a CSV file's records (RFC 4180 quoting; ragged rows kept as they are) as one sheet named
 * `sheetName`. Row numbers count records from 1.
 */
export async function* readCsv(
  filePath: string,
  sheetName: string,
  progress: ReadProgress,
): AsyncGenerator<ParsedRow> {
  const { encoding, sample } = await sniff(filePath);
  const parser = parse<string[], string[]>({ delimiter: detectDelimiter(sample), ignoreEmpty: false });
  const source = countingReadStream(filePath, progress).pipe(decoder(encoding));
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);
  let rowNumber = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    rowNumber++;
    yield { sheet: sheetName, rowNumber, cells: record };
  }
}
