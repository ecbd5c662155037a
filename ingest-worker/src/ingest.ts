import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FileRow, Storage } from '@sift/clickhouse';
import { authorHeaders, hasAuthorColumns, splitAuthorRow } from './authors.ts';
import type { IngestFilePayload, IngestProgress } from './jobs.ts';
import { stat } from 'node:fs/promises';
import {
  InvalidFileError,
  readSpreadsheet,
  trimRow,
  uniqueHeaders,
  validateSpreadsheet,
  type ReadProgress,
} from './parse/index.ts';

/** Rows per ClickHouse insert (the architecture measures 10k–100k as the sweet spot). */
export const INSERT_BATCH_ROWS = 20_000;
export const INGEST_STAGES = ['Validating file', 'Reading and loading rows', 'Finalizing'] as const;
/** Least time between two progress reports while rows are loaded, in ms. */
export const PROGRESS_INTERVAL_MS = 500;

export interface IngestDeps {
  storage: Storage;
  /** Directory holding stored originals (`DATA_DIR/blobs`). */
  blobDir: string;
}

export type ProgressReporter = (progress: IngestProgress) => Promise<void> | void;

/** The id of the AUTHOR file derived from a GENERAL file: deterministic, so a retry replaces it. */
export function authorFileId(sourceFileId: string): string {
  const h = createHash('sha256').update(`author:${sourceFileId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Accumulates the rows of one target file (GENERAL or its AUTHOR file) sheet by sheet. */
class FileLoader {
  readonly columnNames: string[] = [];
  /** Header → physical column; no prototype, so any header name is an ordinary key. */
  readonly columnMap = Object.create(null) as Record<string, string>;
  readonly sheetNames: string[] = [];
  totalRows = 0;
  #sheet = '';
  #headers: string[] = [];
  #buffer: string[][] = [];
  #firstRowNumber = 1;
  #lastRowNumber = 0;
  /** The insert in flight: parsing the next batch overlaps with it (at most one at a time). */
  #inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    readonly fileId: string,
  ) {}

  /** Starts a sheet whose rows are aligned with `headers`. */
  async startSheet(sheet: string, headers: string[]): Promise<void> {
    await this.flush();
    this.#sheet = sheet;
    this.#headers = headers;
    if (!this.sheetNames.includes(sheet)) this.sheetNames.push(sheet);
    await this.#register(headers);
  }

  /** Replaces the current sheet's headers (grown by a ragged row longer than the header row). */
  async setHeaders(headers: string[]): Promise<void> {
    await this.flush();
    this.#headers = headers;
    await this.#register(headers);
  }

  get headers(): string[] {
    return this.#headers;
  }

  async add(rowNumber: number, cells: string[]): Promise<void> {
    if (!this.#buffer.length) this.#firstRowNumber = rowNumber;
    // Row numbers within one insert batch must be consecutive; a gap (skipped blank rows) starts a new batch.
    else if (rowNumber !== this.#lastRowNumber + 1) {
      await this.flush();
      this.#firstRowNumber = rowNumber;
    }
    this.#lastRowNumber = rowNumber;
    this.#buffer.push(cells);
    this.totalRows++;
    if (this.#buffer.length >= INSERT_BATCH_ROWS) await this.flush();
  }

  /** Hands the buffered rows to an insert without waiting for it (after the previous one has ended). */
  async flush(): Promise<void> {
    if (!this.#buffer.length) return;
    const batch = {
      fileId: this.fileId,
      sheet: this.#sheet,
      headers: this.#headers,
      columnMap: Object.assign(Object.create(null), this.columnMap) as Record<string, string>,
      firstRowNumber: this.#firstRowNumber,
      rows: this.#buffer,
    };
    this.#buffer = [];
    await this.#inFlight;
    this.#inFlight = this.storage.rows.insert(batch);
    // Marked handled here; the failure still surfaces at the next flush or at finish().
    this.#inFlight.catch(() => undefined);
  }

  /** Waits for the insert in flight to end, whatever its outcome (before cleaning up after a failure). */
  async settle(): Promise<void> {
    await this.#inFlight.catch(() => undefined);
  }

  /** Flushes and waits until every row is inserted. */
  async finish(): Promise<void> {
    await this.flush();
    await this.#inFlight;
  }

  async #register(headers: string[]): Promise<void> {
    const fresh = headers.filter((h) => !(h in this.columnMap));
    if (!fresh.length) return;
    Object.assign(this.columnMap, await this.storage.rows.ensureColumns(fresh));
    this.columnNames.push(...fresh);
  }
}

/**
 * Ingests one uploaded file: validate → parse (streaming) → load (batched inserts) → derive the
 * AUTHOR file → finalize. Idempotent: rows of an earlier attempt are removed first. On success the
 * file record is PROCESSED with its counts; a file the user must fix throws InvalidFileError (the
 * caller marks it FAILED), anything else is thrown for a retry. Returns the records written.
 */
export async function ingestFile(
  deps: IngestDeps,
  payload: IngestFilePayload,
  report: ProgressReporter = () => {},
): Promise<FileRow[]> {
  const { storage } = deps;
  const file = await storage.files.get(payload.fileId, payload.ownerId);
  if (!file) return []; // deleted before we got to it: nothing to do
  const derivedId = authorFileId(file.id);
  const filePath = path.join(deps.blobDir, payload.storedName);
  const progress = (stage: number, stageProgress: number) =>
    report({
      stage,
      totalStages: INGEST_STAGES.length,
      stageProgress,
      stageDescription: INGEST_STAGES[stage - 1]!,
    });

  await progress(1, 0);
  const format = await validateSpreadsheet(filePath, payload.originalFilename);
  await removeFileData(storage, [file.id, derivedId]);
  const general = new FileLoader(storage, file.id);
  const authors = new FileLoader(storage, derivedId);
  await progress(2, 0);

  let sheet: string | null = null;
  let headerSeen = false;
  let authorSheet = false;
  const read: ReadProgress = { bytesRead: 0 };
  const size = Math.max(1, (await stat(filePath)).size);
  let lastReport = Date.now();
  let seen = 0;
  try {
    for await (const row of readSpreadsheet(filePath, payload.originalFilename, read, format)) {
      // Report by bytes read, at most every PROGRESS_INTERVAL_MS (checked every 256 rows).
      if ((++seen & 255) === 0 && Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        lastReport = Date.now();
        await progress(2, Math.min(99, Math.floor((read.bytesRead / size) * 100)));
      }
      if (row.sheet !== sheet) {
        sheet = row.sheet;
        headerSeen = false;
      }
      const cells = trimRow(row.cells);
      if (!cells.some((c) => c.trim())) continue; // blank rows carry nothing
      if (!headerSeen) {
        headerSeen = true;
        const headers = uniqueHeaders(cells);
        await general.startSheet(sheet, headers);
        authorSheet = hasAuthorColumns(headers);
        if (authorSheet) await authors.startSheet(sheet, authorHeaders(headers));
        continue;
      }
      if (cells.length > general.headers.length) {
        const more = uniqueHeaders(
          new Array<string>(cells.length - general.headers.length).fill(''),
          new Set(general.headers),
          general.headers.length,
        );
        await general.setHeaders([...general.headers, ...more]);
        if (authorSheet) await authors.setHeaders(authorHeaders(general.headers));
      }
      await general.add(row.rowNumber, cells);
      if (authorSheet) {
        for (const authorRow of splitAuthorRow(general.headers, cells)) {
          await authors.add(authors.totalRows + 1, authorRow);
        }
      }
    }
    await progress(2, 100);
    await general.finish();
    await authors.finish();
  } catch (e) {
    // No insert may land after the caller's clean-up.
    await Promise.all([general.settle(), authors.settle()]);
    throw e;
  }
  if (!general.sheetNames.length) throw new InvalidFileError('File is empty', 'empty');

  await progress(3, 0);
  // Deleted while we worked: leave nothing behind.
  if (!(await storage.files.get(file.id, file.ownerId))) {
    await removeFileData(storage, [file.id, derivedId]);
    return [];
  }
  const written: FileRow[] = [];
  if (authors.sheetNames.length) {
    const authorFile: FileRow = {
      ...file,
      id: derivedId,
      filename: '',
      fileType: 'AUTHOR',
      status: 'PROCESSED',
      errorMessage: '',
      totalRows: authors.totalRows,
      totalColumns: authors.columnNames.length,
      columnNames: authors.columnNames,
      sheetNames: authors.sheetNames,
      columnMap: authors.columnMap,
      sourceFileId: file.id,
      sizeBytes: 0,
    };
    await storage.files.save(authorFile);
    written.push(authorFile);
  }
  const done: FileRow = {
    ...file,
    status: 'PROCESSED',
    errorMessage: '',
    totalRows: general.totalRows,
    totalColumns: general.columnNames.length,
    columnNames: general.columnNames,
    sheetNames: general.sheetNames,
    columnMap: general.columnMap,
  };
  await storage.files.save(done);
  written.push(done);
  await progress(3, 100);
  return written;
}

/** Removes the rows of these files and the derived AUTHOR records among them. */
export async function removeFileData(storage: Storage, fileIds: string[]): Promise<void> {
  await storage.rows.deleteFiles(fileIds);
  const derived = (await Promise.all(fileIds.map((id) => storage.files.get(id)))).filter(
    (f): f is FileRow => f !== null && f.fileType === 'AUTHOR',
  );
  await storage.files.remove(derived);
}

/** Marks a file FAILED with a message the user can act on, leaving none of its rows searchable. */
export async function failFile(storage: Storage, payload: IngestFilePayload, message: string): Promise<void> {
  await removeFileData(storage, [payload.fileId, authorFileId(payload.fileId)]);
  const file = await storage.files.get(payload.fileId, payload.ownerId);
  if (file) await storage.files.save({ ...file, status: 'FAILED', errorMessage: message });
}
