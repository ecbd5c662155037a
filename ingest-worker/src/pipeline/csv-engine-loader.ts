import { createReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  countingReadStream,
  decoder,
  detectDelimiter,
  InvalidFileError,
  inspectUpload,
  leadingRows,
  splitCsv,
  headerNames,
  widenHeaders,
  type Encoding,
  type ReadProgress,
  isUnquotedWosExport,
  headerRowAt,
} from '@sift/spreadsheet';
import { hasAuthorColumns } from './author-rows.ts';
import { RowBatchLoader } from './row-batch-loader.ts';
import { withScratchDir } from './scratch.ts';
import {
  noRowToHead,
  noteHeaderRow,
  noteWidened,
  PROGRESS_INTERVAL_MS,
  type LoadContext,
  type LoadedFiles,
} from './types.ts';

/** Size of the pieces the CSV body is loaded in (progress granularity, bounded engine memory). */
export const CSV_CHUNK_BYTES = 32 * 1024 * 1024;
/** Records read ahead of the load to decide each new column's skip index. */
const SAMPLE_ROWS = 2_000;
/** Characters of the header row and sample read at most (a few records of long cells are enough). */
const SAMPLE_CHARS = 16 * 2 ** 20;
/** Share of the load stage spent scanning and splitting (the rest: the engine loading chunks). */
const SCAN_SHARE = 25;

/**
 * Loads a CSV file with the embedded engine parsing the body (an order of magnitude faster than
 * fast-csv; architecture, "Loading and parsing"): the header row (first non-empty record) is read with fast-csv, the body is
 * transcoded to UTF-8 when needed and split at record boundaries in one streaming pass, and each
 * chunk is loaded with `INSERT … SELECT … FROM file()`. Author rows are then derived from the loaded
 * rows. Returns null when the file needs the JavaScript path (a record starting with a blank in a
 * comma or semicolon file, line breaks other than its first one's in a tab-delimited one, Web of
 * Science's tab-delimited export, which never quotes (isUnquotedWosExport), or headers past the
 * column guard).
 */
export async function loadCsvWithEngine(ctx: LoadContext): Promise<LoadedFiles | null> {
  const { encoding, sample: head } =
    ctx.sniffed ??
    (
      await inspectUpload(
        ctx.filePath,
        ctx.originalName,
        { format: 'csv', encoding: ctx.encoding },
        ctx.readIsolation,
      )
    ).sniffed!;
  const delimiter = detectDelimiter(head);
  // Tab-delimited text is read as CustomSeparated, which keeps blanks but needs the record end.
  // ClickHouse's CSV reader drops the whitespace a record starts with.
  if (delimiter === '\t') {
    const recordEnd = tabRecordEnd(head);
    if (!recordEnd || isUnquotedWosExport(head)) return null;
    if (!(await recordEndsUniform(ctx.filePath, encoding, recordEnd))) return null;
    return loadWithEngine(ctx, { encoding, head, delimiter, recordEnd });
  }
  if (await recordStartsWithBlank(ctx.filePath, encoding)) return null;
  return loadWithEngine(ctx, { encoding, head, delimiter });
}

/**
 * How the records of tab-delimited text end, from its first line break: `\r\n` or `\n` (also when
 * the sample has none), or null for bare `\r` line breaks, which CustomSeparated cannot take.
 */
export function tabRecordEnd(head: string): '\n' | '\r\n' | null {
  const lf = head.indexOf('\n');
  if (lf < 0) return head.includes('\r') ? null : '\n';
  return head[lf - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * True when every line break of the file (in its encoding) is `recordEnd`: with `\r\n`, every LF
 * follows a CR; with `\n`, there is no CR at all. CustomSeparated takes only its one record end, and
 * a stray other one would not fail the load: it would join two records into one field. A line break
 * inside a quoted field counts too, which only costs speed (the JavaScript path reads the file).
 * Reads the whole file (native `indexOf`, as recordStartsWithBlank).
 */
export async function recordEndsUniform(
  filePath: string,
  encoding: Encoding,
  recordEnd: '\n' | '\r\n',
): Promise<boolean> {
  const [lf, cr] = [encodedIn('\n', encoding), encodedIn('\r', encoding)];
  const unit = lf.length; // bytes of a code unit
  let previous: Buffer = Buffer.alloc(0); // the last code unit of the chunk before
  let offset = 0; // bytes of the file before this chunk, for the code units' alignment
  for await (const chunk of createReadStream(filePath, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    const wanted = recordEnd === '\n' ? cr : lf;
    for (let at = chunk.indexOf(wanted); at >= 0; at = chunk.indexOf(wanted, at + 1)) {
      if ((offset + at) % unit !== 0) continue; // the bytes straddle two code units
      if (recordEnd === '\n') return false;
      const before = at >= unit ? chunk.subarray(at - unit, at) : previous;
      if (!before.equals(cr)) return false;
    }
    offset += chunk.length;
    if (chunk.length >= unit) previous = Buffer.from(chunk.subarray(chunk.length - unit));
  }
  return true;
}

/** True when the (UTF-8) file's last bytes are `end`. */
async function endsWith(filePath: string, end: string): Promise<boolean> {
  const tail = Buffer.from(end);
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    if (size < tail.length) return false;
    const last = Buffer.alloc(tail.length);
    await handle.read(last, 0, tail.length, size - tail.length);
    return last.equals(tail);
  } finally {
    await handle.close();
  }
}

/** loadCsvWithEngine once the file is known to suit the engine. */
async function loadWithEngine(
  ctx: LoadContext,
  file: { encoding: Encoding; head: string; delimiter: string; recordEnd?: '\n' | '\r\n' },
): Promise<LoadedFiles | null> {
  const { encoding, head, delimiter, recordEnd } = file;
  const sheet = path.parse(ctx.originalName).name || 'Sheet1';

  // The header row (the first record with content past any title rows, and its record number) and
  // a sample of the records after it, which decides the skip index of each new column.
  // Read in the inspection pool, within the reading limits: a hostile first record (a cell of
  // megabytes) costs a worker thread its time or heap, never this thread (which may serve the API).
  const leading = await leadingRows(
    ctx.filePath,
    ctx.originalName,
    sheet,
    ctx.encoding,
    { rows: SAMPLE_ROWS + 1, chars: SAMPLE_CHARS },
    ctx.readIsolation,
  );
  const chosen = ctx.headerRows?.[sheet];
  const at = headerRowAt(leading, chosen);
  const header = leading[at];
  if (!header && chosen !== undefined && leading.length) throw noRowToHead(sheet, chosen);
  if (!header) throw new InvalidFileError('File is empty', 'empty');
  const sample = leading.slice(at + 1).map((r) => r.cells);

  // UTF-8 without a BOM, header on one line: the engine reads the stored file as it is.
  const hasBom = head.charCodeAt(0) === 0xfeff;
  const oneLineHeader = !header.cells.some((c) => /[\r\n]/.test(c));
  // CustomSeparated wants the record end after the last record too; the chunks get one added.
  const ended = !recordEnd || (await endsWith(ctx.filePath, recordEnd));
  if (encoding === 'utf-8' && !hasBom && oneLineHeader && ended && (ctx.csvLoader ?? 'engine') === 'engine') {
    const loaded = await loadDirect(ctx, sheet, { delimiter, recordEnd }, header, sample);
    if (loaded) return loaded;
    await ctx.storage.rows.deleteFiles([ctx.fileId]); // ragged: load again, wider
  }

  return withScratchDir(ctx, `csv-${ctx.fileId}`, async (dir) => {
    const read: ReadProgress = { bytesRead: 0 };
    const size = Math.max(1, (await stat(ctx.filePath)).size);
    const raw = countingReadStream(ctx.filePath, read);
    // UTF-8 goes through as bytes; anything else (or a BOM) is decoded and re-encoded as UTF-8.
    const body: Readable = encoding === 'utf-8' && !hasBom ? raw : raw.pipe(decoder(encoding));
    // A report made from a timer has no one to hand its error to: once the ingest is stopping
    // ('Sift is stopping'), the next awaited report (the first chunk's) throws it instead. Left
    // unhandled, it ended the whole process.
    const timer = setInterval(() => {
      ctx.progress(Math.floor((read.bytesRead / size) * SCAN_SHARE)).catch(() => undefined);
    }, PROGRESS_INTERVAL_MS);
    let split;
    try {
      split = await splitCsv(body, {
        delimiter,
        skipRecords: header.rowNumber,
        dir,
        chunkBytes: ctx.csvChunkBytes ?? CSV_CHUNK_BYTES,
        finalRecordEnd: recordEnd,
      });
    } finally {
      clearInterval(timer);
    }

    const named = headerNames(header.cells);
    const headers = widenHeaders(named, split.maxFields);
    noteHeaderRow(ctx, sheet, header.rowNumber, header.cells, named);
    noteWidened(ctx, sheet, headers.length - named.length);
    const general = await startSheet(ctx, sheet, headers, sample);
    if (!general) return null;
    const total = Math.max(
      1,
      split.chunks.reduce((n, c) => n + c.bytes, 0),
    );
    let done = 0;
    for (const chunk of split.chunks) {
      await ctx.storage.rows.loadCsvFile({
        fileId: ctx.fileId,
        sheet,
        path: chunk.path,
        delimiter,
        recordEnd,
        columns: headers.map((h) => general.columnMap[h]!),
        firstRowNumber: chunk.firstRecord,
      });
      done += chunk.bytes;
      await rm(chunk.path, { force: true });
      await ctx.progress(SCAN_SHARE + Math.floor((done / total) * (100 - SCAN_SHARE - 5)));
    }
    return await finishLoad(ctx, general, sheet);
  });
}

/**
 * `text` (ASCII control and punctuation characters: what the scans below look for) as the bytes it
 * has in a file of `encoding`; every encoding but UTF-16 keeps ASCII as it is.
 */
function encodedIn(text: string, encoding: Encoding): Buffer {
  return encoding === 'utf-16be'
    ? Buffer.from(text, 'utf16le').swap16()
    : Buffer.from(text, encoding === 'utf-16le' ? 'utf16le' : 'latin1');
}

/**
 * True when a record of the file may start with a space or tab, which the engine's CSV reader skips
 * even with whitespace trimming off (chDB 26.x: ` lead,x` loads as `lead`), so the file must be
 * parsed in JavaScript to keep it. Scans the raw bytes, in the file's encoding, for such a first
 * character or a line break followed by one; a match inside a quoted field only costs speed.
 * Reads the whole file, with native `indexOf`.
 */
export async function recordStartsWithBlank(filePath: string, encoding: Encoding): Promise<boolean> {
  const enc = (text: string) => encodedIn(text, encoding);
  const patterns = ['\n ', '\n\t', '\r ', '\r\t'].map(enc);
  const bom =
    encoding === 'utf-8'
      ? Buffer.from([0xef, 0xbb, 0xbf])
      : encoding.startsWith('utf-16')
        ? enc('\ufeff')
        : null;
  const overlap = Math.max(...patterns.map((p) => p.length)) - 1;
  // As if a line break came before the file: a blank first character then matches too.
  let tail = enc('\n');
  let first = true;
  for await (let chunk of createReadStream(filePath, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    if (first && bom && chunk.subarray(0, bom.length).equals(bom)) chunk = chunk.subarray(bom.length);
    first = false;
    // Across the seam between chunks, then within this one (no copy of the chunk).
    const seam = Buffer.concat([tail, chunk.subarray(0, overlap)]);
    if (patterns.some((p) => seam.includes(p) || chunk.includes(p))) return true;
    tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - overlap)));
  }
  return false;
}

/**
 * One INSERT reads the stored file where it is (no copy): the fastest path. Row numbers follow
 * records as long as every line before the body is one record (blank lines and a one-line header).
 * Returns null when a row had more fields than the header row (the caller loads it again, wider).
 * Progress during the INSERT is the share of the file the engine has read (0–90 %).
 */
async function loadDirect(
  ctx: LoadContext,
  sheet: string,
  format: { delimiter: string; recordEnd: '\n' | '\r\n' | undefined },
  header: { rowNumber: number; cells: string[] },
  sample: string[][],
): Promise<LoadedFiles | null> {
  const headers = headerNames(header.cells);
  noteHeaderRow(ctx, sheet, header.rowNumber, header.cells, headers);
  const general = await startSheet(ctx, sheet, headers, sample);
  if (!general) return null;
  const size = Math.max(1, (await stat(ctx.filePath)).size);
  await ctx.storage.rows.loadCsvFile({
    fileId: ctx.fileId,
    sheet,
    path: ctx.filePath,
    ...format,
    columns: headers.map((h) => general.columnMap[h]!),
    firstRowNumber: header.rowNumber + 1,
    skipLines: header.rowNumber,
    detectRagged: true,
    progressEveryMs: PROGRESS_INTERVAL_MS,
    onProgress: (bytes) => ctx.progress(Math.min(90, Math.floor((bytes / size) * 90))),
  });
  if ((await ctx.storage.rows.countRagged(ctx.fileId)) > 0) return null;
  await ctx.progress(90);
  return finishLoad(ctx, general, sheet);
}

/** The GENERAL file's loader with the sheet's columns in place, or null past the column guard. */
async function startSheet(
  ctx: LoadContext,
  sheet: string,
  headers: string[],
  sample: string[][],
): Promise<RowBatchLoader | null> {
  const general = new RowBatchLoader(ctx.storage, ctx.fileId, undefined, ctx.columnBudget);
  await general.startSheet(sheet, headers, sample);
  return headers.every((h) => general.columnMap[h]) ? general : null;
}

/** Counts the loaded rows; the sheet is an AUTHOR file's source when it has the author columns. */
async function finishLoad(ctx: LoadContext, general: RowBatchLoader, sheet: string): Promise<LoadedFiles> {
  general.totalRows = await ctx.storage.rows.countFile(ctx.fileId);
  await ctx.progress(100);
  return {
    general,
    authorSheets: hasAuthorColumns(general.headers) ? [{ sheet, headers: general.headers }] : [],
  };
}
