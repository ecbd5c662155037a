/**
 * The ingest's named stages, in order: validate → load → publish GENERAL → derive AUTHOR → report.
 * Each takes the run's context (IngestRun) and what the stage before it gave; ingestFile
 * (ingest-file.ts) runs them and records the GENERAL file's publication as a checkpoint, so a retry
 * after it resumes at the AUTHOR stage.
 */
import {
  MAX_PHYSICAL_COLUMNS_PER_ACCOUNT,
  MAX_TEXT_INDEXES_PER_ACCOUNT,
  nextRowsId,
  rowGenerations,
  type ColumnBudget,
  type FileRow,
  type Storage,
} from '@sift/clickhouse';
import type { ImportReport } from '@sift/shared/contracts';
import type { IngestFilePayload } from '@sift/shared/jobs';
import { InvalidFileError, inspectUpload } from '@sift/spreadsheet';
import { deriveAuthorFile } from './author-derivation.ts';
import { loadCsvWithEngine } from './csv-engine-loader.ts';
import { authorPairing, buildImportReport, type ImportReportInput } from './import-report.ts';
import { loadWithParsers } from './parser-loader.ts';
import { newColumnBudget } from './row-batch-loader.ts';
import {
  INGEST_STAGES,
  type AuthorSheet,
  type IngestDeps,
  type LoadContext,
  type LoadedFiles,
  type LoadNotes,
  type ProgressReporter,
} from './types.ts';

/** One ingest of one file: what every stage reads, and how it reports. */
export interface IngestRun {
  deps: IngestDeps;
  payload: IngestFilePayload;
  /** The file's record as the run found it. */
  file: FileRow;
  /** The AUTHOR file's id. */
  authorId: string;
  /**
   * Without a gap (a reindex of a PROCESSED file): the file and its AUTHOR file stay searchable
   * with the rows their records point at while the new rows load under their other row ids
   * (nextRowsId); each record then switches over, and the old rows go at the end of the run.
   * `author` is the AUTHOR file's record as the run found it (null: none, or not PROCESSED).
   */
  zeroGap: { author: FileRow | null } | null;
  /** The `rows.file_id` the GENERAL rows load under. */
  rowsId: string;
  /**
   * Reports stage `stage` (1-based, of INGEST_STAGES) at `percent`. While rows are loaded or
   * derived (stages 2 and 3) it throws the signal's reason once the run is aborted, and
   * FileDeletedError once the file was deleted (looked at every DELETED_CHECK_MS), so the job
   * stops between two inserts.
   */
  progress(stage: number, percent: number): Promise<void>;
  signal?: AbortSignal | undefined;
}

/**
 * A run's context.
 *
 * @param deps - what the pipeline runs on
 * @param payload - the job's file
 * @param file - the file's record
 * @param authorId - the AUTHOR file's id
 * @param report - where progress goes (the worker's progress sink)
 * @param signal - aborts when the process is stopping
 * @param zeroGap - a reindex of a PROCESSED file, with its AUTHOR file's record (see IngestRun)
 * @returns the run
 */
export function ingestRun(
  deps: IngestDeps,
  payload: IngestFilePayload,
  file: FileRow,
  authorId: string,
  report: ProgressReporter,
  signal?: AbortSignal,
  zeroGap: IngestRun['zeroGap'] = null,
): IngestRun {
  let checkedAt = Date.now();
  return {
    deps,
    payload,
    file,
    authorId,
    zeroGap,
    rowsId: zeroGap ? nextRowsId(file) : file.id,
    signal,
    async progress(stage, percent) {
      if (stage === 2 || stage === 3) {
        signal?.throwIfAborted();
        // A file deleted while its rows load stops the load at its next report, instead of
        // loading on to the end only for its rows to be removed.
        if (Date.now() - checkedAt >= DELETED_CHECK_MS) {
          checkedAt = Date.now();
          if (!(await deps.storage.files.get(file.id, file.ownerId))) throw new FileDeletedError(file.id);
        }
      }
      await report({
        stage,
        totalStages: INGEST_STAGES.length,
        stageProgress: percent,
        stageDescription: INGEST_STAGES[stage - 1]!,
      });
    },
  };
}

/** How often a run that loads or derives rows looks whether its file was deleted meanwhile, ms. */
export const DELETED_CHECK_MS = 500;

/** Thrown by a run's progress once its file was deleted: the ingest stops and removes its rows. */
export class FileDeletedError extends Error {
  constructor(fileId: string) {
    super(`File ${fileId} was deleted while it was ingested`);
    this.name = 'FileDeletedError';
  }
}

/**
 * What the GENERAL file's publication leaves for the stages after it, kept on the job as its
 * checkpoint (JSON): enough to derive the AUTHOR file and write the report without loading again.
 */
export interface PublishedGeneral {
  format: ImportReportInput['format'];
  csv: ImportReportInput['csv'];
  /** Other text files: how the encoding was chosen (absent in checkpoints from before it was kept). */
  encoding?: ImportReportInput['encoding'];
  /** LoadNotes as entries (JSON has no Map). */
  notes: {
    sheets: [string, { headerRow: number; raw: string[]; headers: string[] }][];
    widened: [string, number][];
  };
  /** Sheets with the author columns; none: no AUTHOR file. */
  authorSheets: AuthorSheet[];
  /** Physical columns the upload may still add (its AUTHOR file spends from them). */
  columnsLeft: number;
}

/** What validate finds: the format and, for a CSV, how it reads. */
export interface Validated {
  format: ImportReportInput['format'];
  csv: ImportReportInput['csv'];
  /** Other text files (tagged records, BibTeX): their encoding. */
  encoding?: ImportReportInput['encoding'];
  sniffed: LoadContext['sniffed'];
}

/**
 * Stage 1, validate: the file's format (given by the api, else found from its content) and, for a
 * CSV, its encoding and delimiter.
 *
 * @throws InvalidFileError when the file is not a spreadsheet Sift reads
 */
export async function validate(run: IngestRun, filePath: string): Promise<Validated> {
  await run.progress(1, 0);
  // Read in the inspection pool (a worker thread, within the reading limits), not on this thread.
  const { format, sniffed, delimiter } = await inspectUpload(
    filePath,
    run.payload.originalFilename,
    { format: run.payload.format, encoding: run.payload.read?.encoding },
    run.deps.readIsolation,
  );
  if (!sniffed) return { format, csv: null, sniffed: undefined };
  const { sample: _, ...encoding } = sniffed;
  // Other text formats: their readers find the encoding too; the report names it.
  if (format !== 'csv') return { format, csv: null, encoding, sniffed: undefined };
  return { format, csv: { encoding, delimiter: delimiter ?? ',' }, sniffed };
}

/**
 * Stage 2, load: removes what an earlier attempt left, then loads every row of the GENERAL file
 * (the engine parses a CSV body; xlsx, xls and the CSV the engine cannot read are parsed in a
 * worker thread), noting header rows for the report.
 *
 * @returns the loaded rows, the sheets an AUTHOR file is to come from, the notes and the budget left
 * @throws InvalidFileError for a file the user must fix (empty, unreadable)
 */
export async function load(
  run: IngestRun,
  filePath: string,
  validated: Validated,
): Promise<LoadedFiles & { notes: LoadNotes; columnsLeft: number }> {
  const { storage } = run.deps;
  if (run.zeroGap) {
    // Searchable meanwhile with its rows: only what an earlier attempt loaded beside them goes.
    await storage.rows.deleteFiles([run.rowsId]);
  } else {
    // A retry after the file was searchable (but before its checkpoint): out of searches first.
    if (run.file.status === 'PROCESSED') await storage.files.save({ ...run.file, status: 'PROCESSING' });
    await storage.removeFileData([run.file.id, run.authorId]);
  }
  await run.progress(2, 0);
  const columnBudget = await accountColumnBudget(storage, run);
  const notes: LoadNotes = { sheets: new Map(), widened: new Map() };
  const ctx: LoadContext = {
    storage,
    filePath,
    originalName: run.payload.originalFilename,
    fileId: run.rowsId,
    authorId: run.authorId,
    tmpDir: run.deps.tmpDir,
    csvChunkBytes: run.deps.csvChunkBytes,
    csvLoader: run.deps.csvLoader,
    readIsolation: run.deps.readIsolation,
    columnBudget,
    notes,
    sniffed: validated.sniffed,
    encoding: run.payload.read?.encoding,
    headerRows: run.payload.read?.headerRows,
    progress: (p) => run.progress(2, p),
  };
  const useEngine = validated.format === 'csv' && (run.deps.csvLoader ?? 'engine') !== 'javascript';
  const loaded = await storage.purgingMemory(
    async () =>
      (useEngine ? await loadCsvWithEngine(ctx) : null) ?? (await loadWithParsers(ctx, validated.format)),
  );
  if (!loaded.general.sheetNames.length) throw new InvalidFileError('File is empty', 'empty');
  run.signal?.throwIfAborted();
  return { ...loaded, notes, columnsLeft: columnBudget.remaining };
}

/**
 * The physical columns and text indexes the run's file may add: MAX_NEW_COLUMNS_PER_FILE, or fewer
 * once the account's other files use close to MAX_PHYSICAL_COLUMNS_PER_ACCOUNT, and what the
 * account's other files leave of MAX_TEXT_INDEXES_PER_ACCOUNT (the table is every account's: one
 * account must not take the room of all).
 */
async function accountColumnBudget(storage: Storage, run: IngestRun): Promise<ColumnBudget> {
  const budget = newColumnBudget();
  const [others, indexed] = await Promise.all([
    storage.files.list({ ownerId: run.file.ownerId }),
    storage.rows.indexedColumns(),
  ]);
  const used = new Set<string>();
  for (const f of others) {
    if (f.id === run.file.id || f.id === run.authorId) continue;
    for (const column of Object.values(f.columnMap)) if (column) used.add(column);
  }
  budget.remaining = Math.min(budget.remaining, Math.max(0, MAX_PHYSICAL_COLUMNS_PER_ACCOUNT - used.size));
  const usedIndexes = [...used].filter((c) => indexed.has(c)).length;
  budget.indexes = Math.max(0, MAX_TEXT_INDEXES_PER_ACCOUNT - usedIndexes);
  return budget;
}

/**
 * Stage 3, publish GENERAL: the file becomes searchable (PROCESSED with its counts), and its AUTHOR
 * file's record says it is on its way, in one write, so the AUTHOR record is never missing while
 * the GENERAL one is done.
 *
 * @returns the published record and the checkpoint the stages after it need
 */
export async function publishGeneral(
  run: IngestRun,
  validated: Validated,
  loaded: Awaited<ReturnType<typeof load>>,
): Promise<{ general: FileRow; published: PublishedGeneral }> {
  const { general } = loaded;
  const done: FileRow = {
    ...run.file,
    status: 'PROCESSED',
    errorMessage: '',
    totalRows: general.totalRows,
    totalColumns: general.columnNames.length,
    columnNames: general.columnNames,
    sheetNames: general.sheetNames,
    columnMap: general.columnMap,
    rowsId: run.rowsId === run.file.id ? '' : run.rowsId,
  };
  // Without a gap, a PROCESSED AUTHOR file stays searchable with its rows until its new ones are in.
  const pending = loaded.authorSheets.length && !run.zeroGap?.author ? [authorRecord(run, done)] : [];
  await run.deps.storage.files.save(...pending, done);
  return {
    general: done,
    published: {
      format: validated.format,
      csv: validated.csv,
      ...(validated.encoding ? { encoding: validated.encoding } : {}),
      notes: { sheets: [...loaded.notes.sheets], widened: [...loaded.notes.widened] },
      authorSheets: loaded.authorSheets,
      columnsLeft: loaded.columnsLeft,
    },
  };
}

/** The AUTHOR file's record while it is derived from `general`. */
function authorRecord(run: IngestRun, general: FileRow): FileRow {
  return {
    ...general,
    id: run.authorId,
    filename: '',
    fileType: 'AUTHOR',
    status: 'PROCESSING',
    errorMessage: '',
    totalRows: 0,
    totalColumns: 0,
    columnNames: [],
    sheetNames: [],
    columnMap: {},
    sourceFileId: general.id,
    sizeBytes: 0,
    rowsId: '',
  };
}

/**
 * Stage 4, derive AUTHOR: one row per author with the email paired to it (the engine writes the
 * rows), from the published GENERAL file's author sheets. Removes what an earlier attempt of this
 * stage left first. Nothing to do without author sheets.
 *
 * @returns the AUTHOR file's record, PROCESSED (not yet written), with its counts; null without
 *   author sheets
 */
export async function deriveAuthors(
  run: IngestRun,
  general: FileRow,
  published: PublishedGeneral,
): Promise<DerivedAuthors | null> {
  await run.progress(3, 0);
  if (!published.authorSheets.length) return null;
  const { storage } = run.deps;
  // Without a gap, under the AUTHOR file's other row id (its rows stay searchable meanwhile);
  // else under its own id, its record saying PROCESSING.
  const shown = run.zeroGap?.author;
  const authorRowsId = shown ? nextRowsId(shown) : run.authorId;
  await storage.rows.deleteFiles(shown ? [authorRowsId] : rowGenerations(run.authorId));
  const authors = await storage.purgingMemory(() =>
    deriveAuthorFile(
      {
        storage,
        general,
        authorId: authorRowsId,
        tmpDir: run.deps.tmpDir,
        columnBudget: { remaining: published.columnsLeft },
        joinRunRows: run.deps.authorJoinRunRows,
        progress: (p) => run.progress(3, p),
      },
      published.authorSheets,
    ),
  );
  return {
    record: {
      ...authorRecord(run, general),
      status: 'PROCESSED',
      totalRows: authors.totalRows,
      totalColumns: authors.columnNames.length,
      columnNames: authors.columnNames,
      sheetNames: authors.sheetNames,
      columnMap: authors.columnMap,
      rowsId: authorRowsId === run.authorId ? '' : authorRowsId,
    },
    recordsWithEmails: authors.recordsWithEmails,
  };
}

/** The AUTHOR file derived: its record, PROCESSED (not yet written), and what the report counts of it. */
export interface DerivedAuthors {
  record: FileRow;
  /** Source records that gave at least one email. */
  recordsWithEmails: number;
}

/**
 * Stage 5, report: writes the file's import report (one read of its rows; it runs beside the
 * AUTHOR stage). Never rejects: a failure is logged and the report left out, since the file is
 * searchable already and a retry would ingest it again for a report.
 *
 * @returns the report written, or null when it could not be
 */
export function writeReport(
  run: IngestRun,
  general: FileRow,
  published: PublishedGeneral,
): Promise<ImportReport | null> {
  const { storage } = run.deps;
  const notes: LoadNotes = {
    sheets: new Map(published.notes.sheets),
    widened: new Map(published.notes.widened),
  };
  return saveReport(storage, general, () =>
    buildImportReport({
      storage,
      general,
      format: published.format,
      csv: published.csv,
      encoding: published.encoding,
      notes,
    }),
  );
}

/**
 * Adds the AUTHOR file's pairing (by name, by position, unmatched, with examples) to the report
 * written by writeReport. Never rejects, like it.
 *
 * @param report - the report written, or null (nothing to add to)
 * @param author - the AUTHOR file, PROCESSED, or null (none)
 */
export async function addAuthorPairing(
  run: IngestRun,
  general: FileRow,
  report: ImportReport | null,
  author: DerivedAuthors | null,
): Promise<void> {
  if (!report || !author) return;
  const { storage } = run.deps;
  await saveReport(storage, general, async () => ({
    ...report,
    authors: await authorPairing(storage, author.record, author.recordsWithEmails),
  }));
}

/** Saves the report `build` makes for `general` and answers it; null (logged) when that failed. */
async function saveReport(
  storage: Storage,
  general: FileRow,
  build: () => Promise<ImportReport>,
): Promise<ImportReport | null> {
  try {
    const body = await build();
    await storage.importReports.save({
      id: general.id,
      ownerId: general.ownerId,
      createdAt: body.createdAt,
      body,
    });
    return body;
  } catch (e) {
    console.error(`[sift] Could not write the import report of file ${general.id}`, e);
    return null;
  }
}
