import { setTimeout } from 'node:timers/promises';
import { newUploadRecord, nextRowsId, type FileRow, type Storage } from '@sift/clickhouse';
import { originalKey } from '@sift/object-store';
import { authorFileId } from '@sift/shared/author-files';
import type { IngestFilePayload } from '@sift/shared/jobs';
import {
  addAuthorPairing,
  deriveAuthors,
  FileDeletedError,
  ingestRun,
  load,
  publishGeneral,
  validate,
  writeReport,
  type IngestRun,
  type PublishedGeneral,
} from './stages.ts';
import { RecordNotReplicatedError } from '../failure-message.ts';
import { listAuthorCopies } from './import-report.ts';
import { RECORD_WAIT_MS, type IngestDeps, type ProgressReporter } from './types.ts';

/**
 * Where a job keeps how far its ingest got (BullMQ's step-job pattern: the job's own data): the
 * GENERAL file's publication, so a retry after it resumes at the AUTHOR stage instead of loading
 * the file again.
 */
export interface IngestCheckpoints {
  /** The publication an earlier attempt recorded, if any. */
  readonly published: PublishedGeneral | null;
  /** Records the GENERAL file's publication. */
  save(published: PublishedGeneral): Promise<void>;
}

/**
 * Ingests one uploaded file through its stages (stages.ts): validate → load → publish GENERAL →
 * derive AUTHOR → report. Idempotent: a stage first removes what an earlier attempt of it left. The
 * GENERAL file is searchable once published (its AUTHOR file's record says PROCESSING until
 * derived); with `checkpoints`, a retry of a published file resumes at the AUTHOR stage. A file
 * the user must fix throws InvalidFileError (the caller marks it FAILED), anything else is thrown
 * for a retry. When `signal` aborts (the process is stopping) the ingest stops at its next progress
 * report with the signal's reason, its inserts settled.
 *
 * @returns the records written, the AUTHOR file first; none when the file was deleted meanwhile
 */
export async function ingestFile(
  deps: IngestDeps,
  payload: IngestFilePayload,
  report: ProgressReporter = () => {},
  signal?: AbortSignal,
  checkpoints?: IngestCheckpoints,
): Promise<FileRow[]> {
  const file = await fileRecord(deps, payload, signal);
  if (!file) return []; // deleted before we got to it: nothing to do
  const authorId = authorFileId(file.id);
  // A reindex of a searchable file goes without a gap (see IngestRun.zeroGap).
  const zeroGap =
    payload.reindex && file.status === 'PROCESSED'
      ? { author: await shownAuthorFile(deps.storage, authorId, file.ownerId) }
      : null;
  const run = ingestRun(deps, payload, file, authorId, report, signal, zeroGap);
  try {
    return await runStages(run, checkpoints);
  } catch (e) {
    if (!(e instanceof FileDeletedError)) throw e;
    // Deleted while its rows loaded: what was loaded goes, and the job is done.
    await deps.storage.removeFileData([file.id, run.authorId]);
    await deps.storage.importReports.removeIds([file.id]);
    return [];
  }
}

/** The stages of a run, from validating to the AUTHOR file's pairing in the report. */
async function runStages(run: IngestRun, checkpoints?: IngestCheckpoints): Promise<FileRow[]> {
  const { deps, payload, file } = run;
  let general = file;
  let published = file.status === 'PROCESSED' ? (checkpoints?.published ?? null) : null;
  if (!published) {
    const local = originalKey(payload.storedName);
    const { validated, loaded } = await deps.originals.withLocalFile(local, deps.tmpDir, async (path) => {
      const validated = await validate(run, path);
      return { validated, loaded: await load(run, path, validated) };
    });
    if (await deletedMeanwhile(run)) return [];
    ({ general, published } = await publishGeneral(run, validated, loaded));
    await checkpoints?.save(published);
  }
  const importReport = writeReport(run, general, published); // beside the AUTHOR stage
  const author = await deriveAuthors(run, general, published).catch(async (e: unknown) => {
    await importReport; // never rejects; settled before anything is cleaned up
    throw e;
  });
  await run.progress(4, 0);
  /** Whether the file was deleted meanwhile: then what the run wrote goes, its report too. */
  const deleted = async () => {
    if (!(await deletedMeanwhile(run))) return false;
    await importReport;
    await deps.storage.importReports.removeIds([general.id]);
    return true;
  };
  if (await deleted()) return [];
  if (author) {
    await deps.storage.files.save(author.record);
    await listAuthorCopies(deps.storage, author.record).catch((e: unknown) =>
      // Searchable as it is: the Authors search then shows every copy of this file's authors.
      console.error(`[sift] Could not list the copied records of file ${author.record.id}`, e),
    );
    // People after the AUTHOR file is searchable (as the GENERAL file is before its AUTHOR file
    // is derived), still within the job: the session says "Ready to search" once they are
    // updated. A file deleted meanwhile takes the people it gave along (deletedMeanwhile).
    await run.progress(4, 20);
    await deps.storage.people.addFile(author.record);
    if (await deleted()) return [];
  }
  await addAuthorPairing(run, general, await importReport, author);
  if (run.zeroGap) await dropReplacedRows(run, general, author?.record ?? null);
  await run.progress(4, 100);
  return author ? [author.record, general] : [general];
}

/** The AUTHOR file's record when it is PROCESSED (searchable), else null. */
async function shownAuthorFile(storage: Storage, authorId: string, ownerId: string): Promise<FileRow | null> {
  const author = await storage.files.get(authorId, ownerId);
  return author?.status === 'PROCESSED' ? author : null;
}

/**
 * How long rows a reindex replaced stay after the records stopped pointing at them, ms: a search
 * that read the records just before the switch still finds them (a running query keeps the parts
 * it reads, so only the moments between reading the records and starting the query count).
 */
export const REPLACED_ROWS_GRACE_MS = 1_000;

/**
 * The end of a reindex without a gap: the rows the GENERAL and AUTHOR records no longer point at
 * go (under the row ids their records do not name: nextRowsId), after REPLACED_ROWS_GRACE_MS; an
 * AUTHOR file the file no longer gives (no author sheets now) goes with its rows.
 */
async function dropReplacedRows(run: IngestRun, general: FileRow, author: FileRow | null): Promise<void> {
  const { storage } = run.deps;
  await setTimeout(REPLACED_ROWS_GRACE_MS);
  await storage.rows.deleteFiles([nextRowsId(general), ...(author ? [nextRowsId(author)] : [])]);
  if (!author && run.zeroGap?.author) await storage.removeFileData([run.authorId]);
}

/** Whether the file was deleted while the run worked; if so its rows go too. */
async function deletedMeanwhile(run: IngestRun): Promise<boolean> {
  const { storage } = run.deps;
  if (await storage.files.get(run.file.id, run.file.ownerId)) return false;
  await storage.removeFileData([run.file.id, run.authorId]);
  return true;
}

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

/**
 * Marks a file FAILED with a message the user can act on, leaving none of its rows searchable.
 * With `recordUnseen` (the job waited for the file's record and it never reached this node: see
 * RecordNotReplicatedError), a node that has never held the record gets a FAILED record of its own,
 * made from the job: written after the API's, it is the newer version, so the file ends FAILED
 * wherever the API's record arrives later, never PROCESSING. A record this node has held (a file
 * deleted meanwhile) is never written again.
 */
export async function failFile(
  storage: Storage,
  payload: IngestFilePayload,
  message: string,
  options: { recordUnseen?: boolean } = {},
): Promise<void> {
  await storage.removeFileData([payload.fileId, authorFileId(payload.fileId)]);
  const file = await storage.files.get(payload.fileId, payload.ownerId);
  if (file) await storage.files.save({ ...file, status: 'FAILED', errorMessage: message });
  else if (options.recordUnseen && !(await storage.files.seen(payload.fileId))) {
    const record = newUploadRecord({
      id: payload.fileId,
      ownerId: payload.ownerId,
      originalFilename: payload.originalFilename,
      filename: payload.storedName,
      sizeBytes: 0,
    });
    await storage.files.save({ ...record, status: 'FAILED', errorMessage: message });
  }
}
