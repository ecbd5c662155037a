import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { newUploadRecord, type FileRow, type Storage } from '@sift/clickhouse';
import { authorFileId } from '@sift/shared/author-files';
import type { FileRecord, FileStatistics, AuthorFileStatistics, ImportReport } from '@sift/shared/contracts';
import type { IngestFilePayload } from '@sift/shared/jobs';
import type { UploadTracker } from '@sift/shared/upload-tracking';
import { InvalidFileError, validateSpreadsheet, type SpreadsheetFormat } from '@sift/spreadsheet';
import { originalKey, type ObjectStore } from '@sift/object-store';
import { HttpError, NotFoundError } from '../errors.ts';
import { QueueUnavailableError } from './upload-queue-error.ts';

/** A stored upload as multer leaves it on disk. */
export interface StoredUpload {
  originalFilename: string;
  storedName: string;
  sizeBytes: number;
}

/** Enqueues one ingest job (the queue module owns BullMQ). */
/** Queues one ingest job; `jobId` defaults to the file id (a file is queued once), a re-ingest passes its own. */
export type EnqueueIngest = (payload: IngestFilePayload, jobId?: string) => Promise<void>;

/** File records: creation on upload, listing, reading and deletion, always within one owner's files. */
export class FilesService {
  constructor(
    private readonly storage: Storage,
    /** Where uploads arrive (multer's destination): the originals' own directory on local disk. */
    private readonly incomingDir: string,
    /** Where originals are kept (local disk or a shared bucket). */
    private readonly objects: ObjectStore,
    private readonly enqueue: EnqueueIngest,
    private readonly tracker: UploadTracker,
    /** Bytes of originals one account may keep; undefined → no quota. */
    private readonly quotaBytes?: number,
  ) {}

  /**
   * Validates each stored upload (content against extension, zip and XML safety) and records it in
   * an upload session (`sessionId`, else a new finalized one): a valid file as a PROCESSING GENERAL
   * file with its ingest enqueued; an invalid one, with `strict`, refuses the whole request (415 for
   * a type or content mismatch, 422 for an unsafe or corrupt file), otherwise it is recorded as
   * FAILED with the reason so the others go on alone. Refused or failed originals are not kept.
   * Redis not answering is QueueUnavailableError (503), with nothing kept. With a quota, uploads
   * that would take the account's originals past it are refused whole (507), nothing kept.
   */
  async accept(
    ownerId: string,
    uploads: StoredUpload[],
    options: { strict?: boolean; sessionId?: string | undefined } = {},
  ): Promise<{ sessionId: string; files: FileRecord[] }> {
    await this.#checkQuota(ownerId, uploads);
    const checks = await Promise.all(uploads.map((u) => this.#validate(u)));
    const problems = checks.map((c) => (c instanceof InvalidFileError ? c : null));
    const refused = problems.find((p) => p !== null);
    if (options.strict && refused) {
      await this.#discardAll(uploads);
      throw new HttpError(refused.kind === 'unsupported' ? 415 : 422, 'INVALID_FILE', refused.message);
    }
    const rows: FileRow[] = uploads.map((upload, i) =>
      newUploadRecord({
        id: randomUUID(),
        ownerId,
        originalFilename: upload.originalFilename,
        filename: upload.storedName,
        sizeBytes: upload.sizeBytes,
        errorMessage: problems[i]?.message,
      }),
    );
    let sessionId: string;
    try {
      sessionId =
        options.sessionId ?? (await this.tracker.createSession(ownerId, sessionName(uploads), true)).id;
      await this.tracker.addFiles(
        sessionId,
        rows.map((r) => ({
          fileId: r.id,
          fileName: r.originalFilename,
          status: r.status === 'FAILED' ? 'FAILED' : 'PENDING',
          errorMessage: r.errorMessage || null,
        })),
      );
    } catch (e) {
      await this.#discardAll(uploads);
      if (e instanceof HttpError) throw e;
      throw new QueueUnavailableError();
    }
    for (const [i, row] of rows.entries()) {
      await this.storage.files.save(row);
      if (row.status === 'FAILED') {
        await this.#discard(uploads[i]!);
        continue;
      }
      try {
        await this.#keep(uploads[i]!);
      } catch (e) {
        await this.#strand(
          rows.slice(i),
          uploads.slice(i),
          'The file could not be stored. Please upload it again.',
        );
        throw e;
      }
      try {
        await this.enqueue({
          fileId: row.id,
          ownerId,
          storedName: row.filename,
          originalFilename: row.originalFilename,
          sessionId,
          ...(typeof checks[i] === 'string' && { format: checks[i] }),
        });
      } catch {
        await this.#strand(
          rows.slice(i),
          uploads.slice(i),
          'The file could not be queued for processing. Please upload it again.',
        );
        throw new QueueUnavailableError();
      }
    }
    return { sessionId, files: rows.map(toFileRecord) };
  }

  /**
   * Files that can never finish (not stored or not queued) fail now, and their originals go, from
   * where they arrived and from a bucket they may have reached (best effort: the request is failing).
   */
  async #strand(rows: FileRow[], uploads: StoredUpload[], message: string): Promise<void> {
    const stranded = rows.filter((r) => r.status !== 'FAILED');
    await this.storage.files.save(
      ...stranded.map((r) => ({ ...r, status: 'FAILED' as const, errorMessage: message })),
    );
    await this.#discardAll(uploads);
    if (this.objects.kind !== 'local')
      await this.objects.remove(uploads.map((u) => originalKey(u.storedName))).catch(() => undefined);
  }

  /** Moves an accepted upload into the object store (nothing to do where it arrived in place). */
  async #keep(upload: StoredUpload): Promise<void> {
    const incoming = path.join(this.incomingDir, upload.storedName);
    const key = originalKey(upload.storedName);
    if (this.objects.localPath(key) === incoming) return;
    await this.objects.putFile(key, incoming);
    await unlink(incoming).catch(() => undefined);
  }

  /** Refuses `uploads` (507, their originals removed) when they would take `ownerId` past the quota. */
  async #checkQuota(ownerId: string, uploads: StoredUpload[]): Promise<void> {
    try {
      await this.ensureRoom(
        ownerId,
        uploads.reduce((n, u) => n + u.sizeBytes, 0),
      );
    } catch (e) {
      await this.#discardAll(uploads);
      throw e;
    }
  }

  /**
   * Resolves when `incomingBytes` more originals fit in `ownerId`'s quota (always, without one);
   * otherwise 507 QUOTA_EXCEEDED saying what is left. accept() checks again with the stored sizes.
   */
  async ensureRoom(ownerId: string, incomingBytes: number): Promise<void> {
    if (this.quotaBytes === undefined) return;
    const kept = await this.storage.files.list({ ownerId, fileType: 'GENERAL' });
    const used = kept.reduce((n, f) => n + f.sizeBytes, 0);
    if (used + incomingBytes <= this.quotaBytes) return;
    const size = (bytes: number) =>
      bytes < 2 ** 20 ? `${Math.ceil(Math.max(0, bytes) / 1024)} KB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
    throw new HttpError(
      507,
      'QUOTA_EXCEEDED',
      `This upload needs ${size(incomingBytes)}, but your account has ${size(this.quotaBytes - used)} of its ${size(this.quotaBytes)} storage left. Delete files you no longer need, or ask an administrator for more space.`,
    );
  }

  /**
   * The upload's format once validated (the ingest then skips validating it again), why it cannot
   * be ingested, or null for an empty file (it goes on and fails at ingest with its own message).
   */
  async #validate(upload: StoredUpload): Promise<SpreadsheetFormat | InvalidFileError | null> {
    try {
      return await validateSpreadsheet(
        path.join(this.incomingDir, upload.storedName),
        upload.originalFilename,
      );
    } catch (e) {
      if (e instanceof InvalidFileError) return e.kind === 'empty' ? null : e;
      throw e;
    }
  }

  async #discard(upload: StoredUpload): Promise<void> {
    await unlink(path.join(this.incomingDir, upload.storedName)).catch(() => undefined);
  }

  async #discardAll(uploads: StoredUpload[]): Promise<void> {
    await Promise.all(uploads.map((u) => this.#discard(u)));
  }

  /** Removes stored uploads that will not be recorded (a refused request). */
  discard(uploads: StoredUpload[]): Promise<void> {
    return this.#discardAll(uploads);
  }

  /** The owner's files in numbers (see FileStatistics). */
  async statistics(ownerId: string): Promise<FileStatistics> {
    const files = await this.storage.files.list({ ownerId });
    const processed = files.filter((f) => f.status === 'PROCESSED');
    const rowsOf = (type: FileRow['fileType']) =>
      processed.filter((f) => f.fileType === type).reduce((n, f) => n + f.totalRows, 0);
    const columns = new Set(processed.filter((f) => f.fileType === 'GENERAL').flatMap((f) => f.columnNames));
    return {
      totalFiles: files.length,
      generalFiles: files.filter((f) => f.fileType === 'GENERAL').length,
      authorFiles: files.filter((f) => f.fileType === 'AUTHOR').length,
      processedFiles: processed.length,
      processingFiles: files.filter((f) => f.status === 'PROCESSING').length,
      failedFiles: files.filter((f) => f.status === 'FAILED').length,
      generalRows: rowsOf('GENERAL'),
      authorRows: rowsOf('AUTHOR'),
      distinctColumns: columns.size,
      totalSizeBytes: files.reduce((n, f) => n + f.sizeBytes, 0),
      lastUploadDate: files[0]?.uploadDate ?? null,
    };
  }

  /** Distinct sheet names of the owner's searchable GENERAL files, sorted. */
  async sheets(ownerId: string): Promise<string[]> {
    const files = await this.storage.files.list({ ownerId, fileType: 'GENERAL', status: 'PROCESSED' });
    return [...new Set(files.flatMap((f) => f.sheetNames))].sort((a, b) => a.localeCompare(b));
  }

  /** The owner's files, newest first. */
  async list(ownerId: string): Promise<FileRecord[]> {
    return (await this.storage.files.list({ ownerId })).map(toFileRecord);
  }

  /** One of the owner's files; another account's id is NotFoundError (404) like a missing one. */
  async get(ownerId: string, id: string): Promise<FileRecord> {
    return toFileRecord(await this.#owned(ownerId, id));
  }

  /**
   * The import report of one of the owner's files (an AUTHOR file answers its source's). 404 when
   * the file is not the owner's, or has no report: not ingested yet, failed, or ingested before
   * reports existed.
   */
  async importReport(ownerId: string, id: string): Promise<ImportReport> {
    const file = await this.#owned(ownerId, id);
    const doc = await this.storage.importReports.get(file.sourceFileId || file.id, ownerId);
    if (!doc) throw new NotFoundError('This file has no import report yet.', 'REPORT_NOT_FOUND');
    return doc.body;
  }

  /**
   * Deletes one of the owner's files: its rows, its record, its stored original, and the AUTHOR file
   * derived from it (deleting an AUTHOR file removes only that file).
   */
  async delete(ownerId: string, id: string): Promise<void> {
    const file = await this.#owned(ownerId, id);
    const ids = file.fileType === 'GENERAL' ? [file.id, authorFileId(file.id)] : [file.id];
    const authorFiles = file.fileType === 'GENERAL' ? await this.storage.files.authorFilesOf(file.id) : [];
    await this.storage.files.remove([file, ...authorFiles]);
    await this.storage.removeFileData(ids);
    if (file.filename) await this.objects.remove([originalKey(file.filename)]);
  }

  /** The owner's AUTHOR files, optionally of one status, sorted as asked. */
  async authorFiles(
    ownerId: string,
    sort: { sortBy: 'createdAt' | 'originalFilename' | 'totalRows'; sortOrder: 'asc' | 'desc' },
    status?: string,
  ): Promise<FileRecord[]> {
    const files = (await this.storage.files.list({ ownerId, fileType: 'AUTHOR' })).filter(
      (f) => !status || f.status === status.toUpperCase(),
    );
    const key = (f: FileRow): string | number =>
      sort.sortBy === 'createdAt'
        ? f.uploadDate
        : sort.sortBy === 'totalRows'
          ? f.totalRows
          : f.originalFilename;
    const sign = sort.sortOrder === 'asc' ? 1 : -1;
    files.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return (
        sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)))
      );
    });
    return files.map(toFileRecord);
  }

  /** Counts over the owner's AUTHOR files. */
  async authorFileStatistics(ownerId: string): Promise<AuthorFileStatistics> {
    const files = await this.storage.files.list({ ownerId, fileType: 'AUTHOR' });
    return {
      totalFiles: files.length,
      processedFiles: files.filter((f) => f.status === 'PROCESSED').length,
      failedFiles: files.filter((f) => f.status === 'FAILED').length,
      totalRows: files.filter((f) => f.status === 'PROCESSED').reduce((n, f) => n + f.totalRows, 0),
      lastCreatedAt: files[0]?.uploadDate ?? null,
    };
  }

  /** Deletes one of the owner's AUTHOR files; any other id (or a GENERAL file's) is 404. */
  async deleteAuthorFile(ownerId: string, id: string): Promise<void> {
    const file = await this.#owned(ownerId, id);
    if (file.fileType !== 'AUTHOR') throw new NotFoundError('Author file not found.', 'FILE_NOT_FOUND');
    await this.delete(ownerId, id);
  }

  async #owned(ownerId: string, id: string): Promise<FileRow> {
    const file = await this.storage.files.get(id, ownerId);
    if (!file) throw new NotFoundError('File not found.', 'FILE_NOT_FOUND');
    return file;
  }
}

/** A session's name from its files: the file name, or the first name and how many more. */
function sessionName(uploads: StoredUpload[]): string {
  const [first] = uploads;
  if (!first) return 'Upload';
  return uploads.length === 1
    ? first.originalFilename
    : `${first.originalFilename} and ${uploads.length - 1} more`;
}

/** The public file record (spec section 3). */
export function toFileRecord(row: FileRow): FileRecord {
  return {
    id: row.id,
    originalFilename: row.originalFilename,
    filename: row.filename,
    fileType: row.fileType,
    status: row.status,
    totalRows: row.totalRows,
    rowCount: row.totalRows,
    totalColumns: row.totalColumns,
    columnNames: row.columnNames,
    sheetNames: row.sheetNames,
    uploadDate: row.uploadDate,
    sizeBytes: row.sizeBytes,
    errorMessage: row.errorMessage || null,
    sourceFileId: row.sourceFileId || null,
  };
}
