import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileRow, Storage } from '@sift/clickhouse';
import { authorFileId, removeFileData, type IngestFilePayload } from '@sift/ingest-worker';
import type { FileRecord } from '../contracts.ts';
import { NotFoundError } from '../errors.ts';

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

  /** Records each stored upload as a PROCESSING GENERAL file and enqueues its ingest. */
  async accept(ownerId: string, uploads: StoredUpload[]): Promise<FileRecord[]> {
    const records: FileRecord[] = [];
    for (const upload of uploads) {
      const row: FileRow = {
        id: randomUUID(),
        ownerId,
        originalFilename: upload.originalFilename,
        filename: upload.storedName,
        fileType: 'GENERAL',
        status: 'PROCESSING',
        errorMessage: '',
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
      await this.enqueue({
        fileId: row.id,
        ownerId,
        storedName: upload.storedName,
        originalFilename: upload.originalFilename,
      });
      records.push(toFileRecord(row));
    }
    return records;
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
