import { pipeline, Transform, type Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InvalidFileError } from './errors.ts';

/** Limits an xlsx (a zip of XML parts) must respect before Sift parses it. */
export const ZIP_LIMITS = {
  /** Parts in the zip; a real workbook has tens, or a few thousand with many sheets and images. */
  maxEntries: 10_000,
  /** Total uncompressed size of all parts, in bytes (a 500 MB upload of dense XML stays well under). */
  maxUncompressedBytes: 8 * 1024 ** 3,
  /** Uncompressed ÷ compressed over the whole archive; spreadsheet XML compresses ~5–30×, zip bombs 1000×+. */
  maxRatio: 200,
  /**
   * The same ratio for each part larger than `partRatioFromBytes` uncompressed, so a bomb cannot
   * hide in one part behind others that do not compress (random padding).
   */
  partRatioFromBytes: 16 * 2 ** 20,
  /** Bytes of each XML part read looking for a DOCTYPE (it must come before the root element). */
  prologBytes: 64 * 1024,
};

/**
 * Opens a zip for reading entry by entry (lazy entries, closed by the caller).
 *
 * @param filePath - the zip
 * @returns the zip, opened
 */
export function openZip(filePath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, zip) =>
      err ? reject(err) : resolve(zip),
    ),
  );
}

/**
 * Every entry of a zip opened with openZip, from its central directory (no content is read).
 *
 * @param zip - a zip opened with openZip
 * @returns its entries
 */
export function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * Size of the pieces a deflated entry is inflated in, in bytes: yauzl's own inflate uses zlib's
 * default of 16 KB, and inflating in pieces this large takes about half the time.
 */
export const INFLATE_CHUNK_BYTES = 256 * 1024;

/**
 * The decompressed content of one entry. A deflated entry is inflated here in pieces of
 * INFLATE_CHUNK_BYTES, held to the size its zip directory gives, as yauzl does (an error when the
 * content is longer or shorter); a stored one is read by yauzl.
 *
 * @param zip - a zip opened with openZip
 * @param entry - one of its entries
 * @returns the entry's content as a stream
 */
export async function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  const deflated = entry.compressionMethod === 8;
  const raw = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, { decompress: deflated ? false : null }, (err, stream) =>
      err ? reject(err) : resolve(stream),
    ),
  );
  if (!deflated) return raw;
  const expected = entry.uncompressedSize;
  let bytes = 0;
  const sized = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > expected)
        done(new Error(`a part holds more than the ${expected} bytes its zip directory gives`));
      else done(null, chunk);
    },
    flush(done) {
      done(
        bytes < expected
          ? new Error(`a part holds fewer than the ${expected} bytes its zip directory gives`)
          : null,
      );
    },
  });
  pipeline(raw, createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }), sized, () => undefined);
  return sized;
}

/** The first `limit` decompressed bytes of an entry, as latin1 text (enough to spot markup). */
async function prolog(zip: ZipFile, entry: Entry, limit: number): Promise<string> {
  const stream = await openEntry(zip, entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('latin1');
}

/**
 * Checks an xlsx before parsing, from its central directory and the start of each XML part: entry
 * count, total uncompressed size and compression ratio (zip bombs), and no `<!DOCTYPE` in any XML
 * part (entity expansion and external entities). Throws InvalidFileError (`unsafe` or `unreadable`).
 *
 * @param filePath - the stored workbook
 * @param originalName - the name the user gave it
 * @throws InvalidFileError (kind `unsafe` or `corrupt`) with the reason
 */
export async function scanXlsx(filePath: string, originalName: string): Promise<void> {
  let zip: ZipFile;
  try {
    zip = await openZip(filePath);
  } catch (e) {
    throw new InvalidFileError(
      `"${originalName}" could not be read as an Excel workbook: ${(e as Error).message}. Check that it opens in Excel, save it again and re-upload it.`,
      'unreadable',
    );
  }
  try {
    if (zip.entryCount > ZIP_LIMITS.maxEntries) {
      throw new InvalidFileError(
        `"${originalName}" was refused: it has ${zip.entryCount} parts, more than the ${ZIP_LIMITS.maxEntries} a workbook may have.`,
        'unsafe',
      );
    }
    const entries = await listEntries(zip).catch((e: unknown) => {
      throw new InvalidFileError(
        `"${originalName}" could not be read as an Excel workbook: ${(e as Error).message}. Save it again in Excel and re-upload it.`,
        'unreadable',
      );
    });
    const compressed = entries.reduce((sum, e) => sum + e.compressedSize, 0);
    const uncompressed = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    const xmlParts = entries.filter((e) => /\.(xml|rels|vml)$/i.test(e.fileName));
    if (
      uncompressed > ZIP_LIMITS.maxUncompressedBytes ||
      uncompressed > ZIP_LIMITS.maxRatio * Math.max(compressed, 1)
    ) {
      throw new InvalidFileError(
        `"${originalName}" was refused: it would expand to ${Math.round(uncompressed / 1024 ** 2)} MB, too much for its size (a possible zip bomb).`,
        'unsafe',
      );
    }
    const bomb = entries.find(
      (e) =>
        e.uncompressedSize > ZIP_LIMITS.partRatioFromBytes &&
        e.uncompressedSize > ZIP_LIMITS.maxRatio * Math.max(e.compressedSize, 1),
    );
    if (bomb) {
      throw new InvalidFileError(
        `"${originalName}" was refused: its part ${bomb.fileName} would expand to ${Math.round(bomb.uncompressedSize / 1024 ** 2)} MB, too much for its size (a possible zip bomb).`,
        'unsafe',
      );
    }
    for (const entry of xmlParts) {
      let head: string;
      try {
        head = await prolog(zip, entry, ZIP_LIMITS.prologBytes);
      } catch (e) {
        throw new InvalidFileError(
          `"${originalName}" could not be read as an Excel workbook: ${(e as Error).message}. Save it again in Excel and re-upload it.`,
          'unreadable',
        );
      }
      if (/<!DOCTYPE/i.test(head)) {
        throw new InvalidFileError(
          `"${originalName}" was refused: its part ${entry.fileName} contains a DOCTYPE declaration, which spreadsheets do not need and Sift does not accept for safety.`,
          'unsafe',
        );
      }
    }
  } finally {
    zip.close();
  }
}
