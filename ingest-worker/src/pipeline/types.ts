/** The shapes the ingest pipeline's stages pass each other: its dependencies, contexts and results. */
import type { ColumnBudget, Storage } from '@sift/clickhouse';
import type { ObjectStore } from '@sift/object-store';
import type { IngestProgress } from '@sift/shared/jobs';
import { InvalidFileError, type EncodingGuess, type ReadIsolation } from '@sift/spreadsheet';
import type { RowBatchLoader } from './row-batch-loader.ts';

export const INGEST_STAGES = [
  'Validating file',
  'Reading and loading rows',
  'Deriving author rows',
  'Finalizing',
] as const;
/** Least time between two progress reports while rows are loaded, in ms. */
export const PROGRESS_INTERVAL_MS = 500;

/**
 * Whether a progress report is due: true at most every PROGRESS_INTERVAL_MS, counted from `since`
 * (ms since the epoch; 0: the first call is due). Each report is written to Redis twice (the job
 * and the upload session), so reports go by time, not by rows.
 */
export function progressDue(since = 0): () => boolean {
  let last = since;
  return () => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS) return false;
    last = now;
    return true;
  };
}

export interface IngestDeps {
  storage: Storage;
  /** Where uploaded originals are kept (`originalKey(storedName)`): DATA_DIR or a shared bucket. */
  originals: ObjectStore;
  /** Scratch directory (`DATA_DIR/tmp`): batch files, CSV chunks, originals fetched from a bucket. */
  tmpDir: string;
  /**
   * Who parses CSV: `engine` lets ClickHouse read the body (the default, many times faster than
   * JavaScript): embedded, from the stored file in place when it is UTF-8, else from transcoded
   * chunks; a server is sent the same bytes as the body of its INSERT. `engine-chunked` always goes
   * through chunks (progress by chunk); `javascript` uses fast-csv.
   */
  csvLoader?: CsvLoader;
  /** Size of the pieces the engine loads a CSV body in, in bytes (default CSV_CHUNK_BYTES). */
  csvChunkBytes?: number;
  /** GENERAL rows whose author pairs make one join insert (default JOIN_RUN_ROWS, author-derivation.ts). */
  authorJoinRunRows?: number;
  /** What reading one file in JavaScript may cost (default READ_ISOLATION). */
  readIsolation?: ReadIsolation;
  /**
   * How long a job waits for its file's record to reach the ClickHouse replica it reads, in ms
   * (see fileRecord); default RECORD_WAIT_MS on a replicated cluster, else 0.
   */
  recordWaitMs?: number;
}

/** Default of IngestDeps.recordWaitMs on a replicated cluster: replicas normally catch up in well under this. */
export const RECORD_WAIT_MS = 30_000;

export type CsvLoader = 'engine' | 'engine-chunked' | 'javascript';

export type ProgressReporter = (progress: IngestProgress) => Promise<void> | void;

/** What a loader needs: where the file is, whose rows it loads, and where to report stage progress. */
export interface LoadContext {
  storage: Storage;
  filePath: string;
  originalName: string;
  fileId: string;
  /** Id of the AUTHOR file derived from this one. */
  authorId: string;
  /** Scratch directory for intermediate files. */
  tmpDir: string;
  /** CSV chunk size for the engine loader, in bytes. */
  csvChunkBytes?: number | undefined;
  csvLoader?: CsvLoader | undefined;
  readIsolation?: ReadIsolation | undefined;
  /** Physical columns this upload (its GENERAL and AUTHOR files) may still add to `rows`. */
  columnBudget: ColumnBudget;
  /** Stage progress, 0–100. */
  progress: (stageProgress: number) => Promise<void>;
  /** What the loader notes for the import report (optional: loaders called alone need none). */
  notes?: LoadNotes | undefined;
  /** A CSV's `sniff` (encoding and decoded first bytes), when already made; else the loader makes it. */
  sniffed?: (EncodingGuess & { sample: string }) | undefined;
  /** Text formats: the encoding a person chose when re-ingesting, instead of the guess. */
  encoding?: string | undefined;
  /** Sheet → the header row a person chose when re-ingesting (counted from 1). */
  headerRows?: Readonly<Record<string, number>> | undefined;
}

/** What a loader notes for a file's import report (import-report.ts). */
export interface LoadNotes {
  /** Sheet → its header row (counted from 1), the header cells as read, and the headers used. */
  sheets: Map<string, { headerRow: number; raw: string[]; headers: string[] }>;
  /** Sheet → how many columns rows wider than the header row added. */
  widened: Map<string, number>;
}

/** Notes a sheet's header row (a later note of the same sheet, e.g. a load started again, replaces it). */
export function noteHeaderRow(
  ctx: LoadContext,
  sheet: string,
  headerRow: number,
  raw: string[],
  headers: string[],
): void {
  ctx.notes?.sheets.set(sheet, { headerRow, raw, headers });
}

/** Notes that rows of a sheet were wider than its header row: `added` columns were added for them. */
export function noteWidened(ctx: LoadContext, sheet: string, added: number): void {
  if (added > 0) ctx.notes?.widened.set(sheet, added);
}

/** A sheet of the GENERAL file whose header row has the author columns, with its final headers. */
export interface AuthorSheet {
  sheet: string;
  headers: string[];
}

/** The GENERAL file's rows, loaded, and the sheets its AUTHOR file is to be derived from. */
export interface LoadedFiles {
  general: RowBatchLoader;
  authorSheets: AuthorSheet[];
}

/**
 * The error for a header row chosen below a sheet's last row with content.
 *
 * @param sheet - the sheet
 * @param row - the row chosen
 * @returns an InvalidFileError saying what to do
 */
export function noRowToHead(sheet: string, row: number): InvalidFileError {
  return new InvalidFileError(
    `Sheet "${sheet}" has no row with content at or after row ${row}, which was chosen as its header row. Open the import report and choose another row.`,
  );
}
