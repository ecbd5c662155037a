import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileRow, Storage } from '@sift/clickhouse';
import {
  authorFileId,
  InvalidFileError,
  removeFileData,
  validateSpreadsheet,
  type IngestFilePayload,
} from '@sift/ingest-worker';
import type { FileRecord } from '../contracts.ts';
import { HttpError, NotFoundError } from '../errors.ts';

/** A stored upload as multer leaves it on disk. */
export interface StoredUpload {
  originalFilename: string;
  storedName: string;
  sizeBytes: number;
}

/** Enqueues one ingest job (the queue module owns BullMQ). */
export type EnqueueIngest = (payload: IngestFilePayload) => Promise<void>;

/** File records: creation on upload, listing, reading and deletion, always within one owner's files. */
export class FilesService {
  constructor(
    private readonly storage: Storage,
    private readonly blobDir: string,
    private readonly enqueue: EnqueueIngest,
  ) {}

  /**
   * Validates each stored upload (content against extension, zip and XML safety) and records it:
   * a valid one as a PROCESSING GENERAL file with its ingest enqueued; an invalid one, with
   * `strict`, refuses the whole request (415 for a type or content mismatch, 422 for an unsafe or
   * corrupt file), otherwise it is recorded as FAILED with the reason so the others go on alone.
   * Refused or failed originals are not kept.
   */
  async accept(ownerId: string, uploads: StoredUpload[], strict = false): Promise<FileRecord[]> {
    const problems = await Promise.all(uploads.map((u) => this.#problem(u)));
    const refused = problems.find((p) => p !== null);
    if (strict && refused) {
      await Promise.all(uploads.map((u) => this.#discard(u)));
      throw new HttpError(refused.kind === 'unsupported' ? 415 : 422, 'INVALID_FILE', refused.message);
    }
    const records: FileRecord[] = [];
    for (const [i, upload] of uploads.entries()) {
      const problem = problems[i] ?? null;
      const row: FileRow = {
        id: randomUUID(),
        ownerId,
        originalFilename: upload.originalFilename,
        filename: upload.storedName,
        fileType: 'GENERAL',
        status: problem ? 'FAILED' : 'PROCESSING',
        errorMessage: problem?.message ?? '',
        totalRows: 0,
        totalColumns: 0,
        columnNames: [],
        sheetNames: [],
        columnMap: {},
        sizeBytes: upload.sizeBytes,
        sourceFileId: '',
        uploadDate: new Date().toISOString(),
      };
      await this.storage.files.save(row);
      records.push(toFileRecord(row));
      if (problem) {
        await this.#discard(upload);
        continue;
      }
      await this.enqueue({
        fileId: row.id,
        ownerId,
        storedName: upload.storedName,
        originalFilename: upload.originalFilename,
      });
    }
    return records;
  }

  /** Why the upload cannot be ingested, or null (an empty file goes on and fails at ingest). */
  async #problem(upload: StoredUpload): Promise<InvalidFileError | null> {
    try {
      await validateSpreadsheet(path.join(this.blobDir, upload.storedName), upload.originalFilename);
      return null;
    } catch (e) {
      if (e instanceof InvalidFileError) return e.kind === 'empty' ? null : e;
      throw e;
    }
  }

  async #discard(upload: StoredUpload): Promise<void> {
    await unlink(path.join(this.blobDir, upload.storedName)).catch(() => undefined);
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
   * Deletes one of the owner's files: its rows, its record, its stored original, and the AUTHOR file
   * derived from it (deleting an AUTHOR file removes only that file).
   */
  async delete(ownerId: string, id: string): Promise<void> {
    const file = await this.#owned(ownerId, id);
    const ids = file.fileType === 'GENERAL' ? [file.id, authorFileId(file.id)] : [file.id];
    const derived = file.fileType === 'GENERAL' ? await this.storage.files.derivedFrom(file.id) : [];
    await this.storage.files.remove([file, ...derived]);
    await removeFileData(this.storage, ids);
    if (file.filename) await unlink(path.join(this.blobDir, file.filename)).catch(() => undefined);
  }

  async #owned(ownerId: string, id: string): Promise<FileRow> {
    const file = await this.storage.files.get(id, ownerId);
    if (!file) throw new NotFoundError('File not found.', 'FILE_NOT_FOUND');
    return file;
  }
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
