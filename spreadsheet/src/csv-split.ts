import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** A piece of a CSV body, cut at a record boundary, ready for the engine to load. */
export interface CsvChunk {
  path: string;
  /** Record number (1-based, counting every record of the original file) of the chunk's first record. */
  firstRecord: number;
  records: number;
  bytes: number;
}

export interface CsvSplit {
  chunks: CsvChunk[];
  /** Most fields with content in any body record (trailing empty fields not counted). */
  maxFields: number;
  /** Records in the whole file, header and leading rows included. */
  records: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Scans a UTF-8 CSV byte stream once, RFC 4180-aware (quoted fields, doubled quotes, line breaks
 * inside quotes; CRLF, LF or CR record ends), and writes the records after the first `skipRecords`
 * into chunk files of about `chunkBytes` under `dir`, cut at record boundaries, so the engine can load
 * them one by one (progress, bounded memory). Also counts records and the widest body record's fields
 * with content. Record counting matches ClickHouse's CSV reader (an empty line is a record).
 *
 * @param input - the CSV's UTF-8 bytes
 * @param options - the delimiter, records to skip, where to write and the chunk size in bytes
 * @returns the chunk files and the record counts
 */
export async function splitCsv(
  input: Readable,
  options: {
    delimiter: string;
    skipRecords: number;
    dir: string;
    chunkBytes: number;
    /** Written after the last record when the input does not end with a line break. */
    finalRecordEnd?: string;
  },
): Promise<CsvSplit> {
  const delimiter = options.delimiter.charCodeAt(0);
  const chunks: CsvChunk[] = [];
  let out = null as WriteStream | null;
  let current = null as CsvChunk | null;
  let nextFirst = options.skipRecords + 1;
  let records = 0;
  let maxFields = 0;
  let inQuotes = false;
  let closingQuote = false; // the previous byte closed a quoted section (a quote next is a literal quote)
  let afterCR = false;
  // A chunk is full at a CR: it is cut after the LF of the CRLF, or before the next byte if none
  // follows, so no chunk starts with the LF of a record of the chunk before (an empty record).
  let pendingCut = false;
  let field = 0;
  let fieldHasContent = false;
  let lastContentField = -1;

  const write = async (bytes: Buffer) => {
    if (!bytes.length) return;
    if (!current) {
      current = {
        path: path.join(options.dir, `chunk-${chunks.length}.csv`),
        firstRecord: nextFirst,
        records: 0,
        bytes: 0,
      };
      chunks.push(current);
      out = createWriteStream(current.path);
    }
    current.bytes += bytes.length;
    if (!out!.write(bytes)) await once(out!, 'drain');
  };
  const closeChunk = async (lastRecord: number) => {
    if (!current || !out) return;
    current.records = lastRecord - current.firstRecord + 1;
    const closing: WriteStream = out;
    out = null;
    current = null;
    nextFirst = lastRecord + 1;
    closing.end();
    await once(closing, 'finish');
  };
  const endRecord = () => {
    if (fieldHasContent) lastContentField = field;
    records++;
    if (records > options.skipRecords) maxFields = Math.max(maxFields, lastContentField + 1);
    field = 0;
    fieldHasContent = false;
    lastContentField = -1;
  };

  for await (const buf of input as AsyncIterable<Buffer>) {
    let sliceStart = 0;
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i]!;
      const wasCR = afterCR;
      afterCR = false;
      if (pendingCut) {
        pendingCut = false;
        const end = b === LF ? i + 1 : i;
        await write(buf.subarray(sliceStart, end));
        sliceStart = end;
        await closeChunk(records);
        if (b === LF) continue; // the LF of the CRLF went with its record
      }
      if (inQuotes) {
        if (b === QUOTE) {
          inQuotes = false;
          closingQuote = true;
        } else fieldHasContent = true;
        continue;
      }
      if (b === QUOTE) {
        if (closingQuote) fieldHasContent = true; // "" inside a quoted field is a literal quote
        inQuotes = true;
        closingQuote = false;
        continue;
      }
      closingQuote = false;
      if (b === LF && wasCR) {
        // The LF of a CRLF: the record was counted at the CR. Right after the last skipped
        // record it must not reach the body, or the engine would read an empty first record.
        if (records === options.skipRecords) sliceStart = i + 1;
        continue;
      }
      if (b === delimiter) {
        if (fieldHasContent) lastContentField = field;
        field++;
        fieldHasContent = false;
        continue;
      }
      if (b === LF || b === CR) {
        endRecord();
        afterCR = b === CR;
        if (records <= options.skipRecords) sliceStart = i + 1;
        else if ((current?.bytes ?? 0) + (i + 1 - sliceStart) >= options.chunkBytes) {
          if (b === CR) pendingCut = true;
          else {
            await write(buf.subarray(sliceStart, i + 1));
            sliceStart = i + 1;
            await closeChunk(records);
          }
        }
        continue;
      }
      fieldHasContent = true;
    }
    if (records >= options.skipRecords) await write(buf.subarray(sliceStart));
  }
  if (field > 0 || fieldHasContent || lastContentField >= 0 || inQuotes) {
    endRecord(); // no final line break
    if (options.finalRecordEnd && records > options.skipRecords)
      await write(Buffer.from(options.finalRecordEnd));
  }
  await closeChunk(records);
  return { chunks, maxFields, records };
}
