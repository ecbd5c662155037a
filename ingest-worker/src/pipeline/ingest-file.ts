import { setTimeout } from 'node:timers/promises';
import type { FileRow, Storage } from '@sift/clickhouse';
import { originalKey } from '@sift/object-store';
import { authorFileId } from '@sift/shared/author-files';
import type { IngestFilePayload } from '@sift/shared/jobs';
import {
  detectDelimiter,
  InvalidFileError,
  sniff,
  validateSpreadsheet,
  type SpreadsheetFormat,
} from '@sift/spreadsheet';
import type { ImportReport } from '@sift/shared/contracts';
import { authorPairing, buildImportReport, type ImportReportInput } from './import-report.ts';
import { deriveAuthorFile } from './author-derivation.ts';
import { loadCsvWithEngine } from './csv-engine-loader.ts';
import { loadWithParsers } from './parser-loader.ts';
import { newColumnBudget } from './row-batch-loader.ts';
import {
  INGEST_STAGES,
  RECORD_WAIT_MS,
  type IngestDeps,
  type LoadContext,
  type LoadNotes,
  type ProgressReporter,
} from './types.ts';

/**
 * Ingests one uploaded file: validate → parse (streaming) → load (batched inserts) → derive the
 * AUTHOR file (the engine writes its rows: author-derivation.ts) → finalize. Idempotent: rows of an
 * earlier attempt are removed first. The file record is PROCESSED with its counts as soon as its
 * rows are loaded (searchable while the AUTHOR file is derived), the AUTHOR record when it is done.
 * A file the user must fix throws InvalidFileError (the caller marks it FAILED), anything else is
 * thrown for a retry. Returns the records written.
 * When `signal` aborts (the process is stopping) the ingest stops at its next progress report with
 * the signal's reason, its inserts settled, so another worker can start the file again.
 */
export async function ingestFile(
  deps: IngestDeps,
  payload: IngestFilePayload,
  report: ProgressReporter = () => {},
  signal?: AbortSignal,
): Promise<FileRow[]> {
  const { storage } = deps;
  const file = await fileRecord(deps, payload, signal);
  if (!file) return []; // deleted before we got to it: nothing to do
  const authorId = authorFileId(file.id);
  const progress = (stage: number, stageProgress: number) =>
    report({
      stage,
      totalStages: INGEST_STAGES.length,
      stageProgress,
      stageDescription: INGEST_STAGES[stage - 1]!,
    });

  await progress(1, 0);
  // The original as a local file: its own on local disk, a scratch copy from a shared bucket.
  const columnBudget = newColumnBudget();
  const notes: LoadNotes = { sheets: new Map(), widened: new Map() };
  let format: SpreadsheetFormat = 'csv';
  let csv: ImportReportInput['csv'] = null;
  let sniffed: LoadContext['sniffed'];
  const { general, authorSheets } = await deps.originals.withLocalFile(
    originalKey(payload.storedName),
    deps.tmpDir,
    async (filePath) => {
      format = payload.format ?? (await validateSpreadsheet(filePath, payload.originalFilename));
      if (format === 'csv') {
        // As the loaders choose them (they read in a worker thread or in the engine): for the report.
        sniffed = await sniff(filePath);
        const { sample, ...encoding } = sniffed;
        csv = { encoding, delimiter: detectDelimiter(sample) };
      }
      // A retry after the file was searchable (its AUTHOR file failed): out of searches first.
      if (file.status === 'PROCESSED') await storage.files.save({ ...file, status: 'PROCESSING' });
      await storage.removeFileData([file.id, authorId]);
      await progress(2, 0);
      const load: LoadContext = {
        storage,
        filePath,
        originalName: payload.originalFilename,
        fileId: file.id,
        authorId,
        tmpDir: deps.tmpDir,
        csvChunkBytes: deps.csvChunkBytes,
        csvLoader: deps.csvLoader,
        readIsolation: deps.readIsolation,
        columnBudget,
        notes,
        sniffed,
        progress: async (p) => {
          signal?.throwIfAborted();
          await progress(2, p);
        },
      };
      const useEngine = format === 'csv' && (deps.csvLoader ?? 'engine') !== 'javascript';
      return storage.purgingMemory(
        async () =>
          (useEngine ? await loadCsvWithEngine(load) : null) ?? (await loadWithParsers(load, format)),
      );
    },
  );
  if (!general.sheetNames.length) throw new InvalidFileError('File is empty', 'empty');
  signal?.throwIfAborted();

  // Deleted while we worked: leave nothing behind.
  const deletedMeanwhile = async () => {
    if (await storage.files.get(file.id, file.ownerId)) return false;
    await storage.removeFileData([file.id, authorId]);
    return true;
  };
  if (await deletedMeanwhile()) return [];
  // The AUTHOR file's record says it is on its way when the GENERAL file becomes searchable.
  const authorFile: FileRow | null = authorSheets.length
    ? {
        ...file,
        id: authorId,
        filename: '',
        fileType: 'AUTHOR',
        status: 'PROCESSING',
        errorMessage: '',
        totalRows: 0,
        totalColumns: 0,
        columnNames: [],
        sheetNames: [],
        columnMap: {},
        sourceFileId: file.id,
        sizeBytes: 0,
      }
    : null;
  // Searchable now: the AUTHOR file is derived after.
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
  // One write for both records: the AUTHOR record is never missing while the GENERAL one is done.
  await storage.files.save(...(authorFile ? [authorFile, done] : [done]));
  const written: FileRow[] = [done];
  // The import report, once the file is searchable, beside the AUTHOR file's derivation (it never
  // rejects); that file's pairing is added to it after.
  const importReport = reporting(done, () =>
    buildImportReport({ storage, general: done, format, csv, notes }),
  );

  await progress(3, 0);
  if (authorFile) {
    const authors = await storage.purgingMemory(() =>
      deriveAuthorFile(
        {
          storage,
          general: done,
          authorId,
          tmpDir: deps.tmpDir,
          columnBudget,
          joinRunRows: deps.authorJoinRunRows,
          progress: async (p) => {
            signal?.throwIfAborted();
            await progress(3, p);
          },
        },
        authorSheets,
      ),
    );
    await progress(4, 0);
    if (await deletedMeanwhile()) {
      await importReport;
      await storage.importReports.removeIds([done.id]);
      return [];
    }
    const derived: FileRow = {
      ...authorFile,
      status: 'PROCESSED',
      totalRows: authors.totalRows,
      totalColumns: authors.columnNames.length,
      columnNames: authors.columnNames,
      sheetNames: authors.sheetNames,
      columnMap: authors.columnMap,
    };
    await storage.files.save(derived);
    written.unshift(derived);
    const first = await importReport;
    if (first)
      await reporting(done, async () => ({ ...first, authors: await authorPairing(storage, derived) }));
  }
  await importReport;
  await progress(4, 100);
  return written;

  /**
   * Saves the import report `build` makes for `general`, and answers it; null when that failed,
   * which is logged, never passed on: the file is searchable already, and a retry would ingest it
   * all again for a report.
   */
  async function reporting(
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
}

/** Error of a job whose file's record never reached the replica it reads; the job is retried. */
export class RecordNotReplicatedError extends Error {}

/**
 * The file's record, or null when the file was deleted. On a replicated cluster the API may have
 * written the record through another replica than the one this worker reads, so a record this node
 * has never held (not even as deleted) is asked for again, backing off from 50 ms, for up to
 * `deps.recordWaitMs`; past that this throws RecordNotReplicatedError (the job is retried).
 * Resolves at once for a record found or deleted; rejects with `signal`'s reason when it aborts.
 */
export async function fileRecord(
  deps: Pick<IngestDeps, 'storage' | 'recordWaitMs'>,
  payload: IngestFilePayload,
  signal?: AbortSignal,
): Promise<FileRow | null> {
  const { storage } = deps;
  const waitMs = deps.recordWaitMs ?? (storage.layout.cluster?.replicated ? RECORD_WAIT_MS : 0);
  const deadline = Date.now() + waitMs;
  for (let pause = 50; ; pause = Math.min(pause * 2, 2000)) {
    const file = await storage.files.get(payload.fileId, payload.ownerId);
    if (file) return file;
    if (waitMs <= 0 || (await storage.files.seen(payload.fileId))) return null;
    if (Date.now() >= deadline) {
      throw new RecordNotReplicatedError(
        `The record of file ${payload.fileId} has not reached this ClickHouse replica after ${waitMs} ms.`,
      );
    }
    await setTimeout(Math.min(pause, Math.max(0, deadline - Date.now())), undefined, { signal });
  }
}

/** Marks a file FAILED with a message the user can act on, leaving none of its rows searchable. */
export async function failFile(storage: Storage, payload: IngestFilePayload, message: string): Promise<void> {
  await storage.removeFileData([payload.fileId, authorFileId(payload.fileId)]);
  const file = await storage.files.get(payload.fileId, payload.ownerId);
  if (file) await storage.files.save({ ...file, status: 'FAILED', errorMessage: message });
}
