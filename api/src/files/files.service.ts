import type { FileRow, Storage } from '@sift/clickhouse';
import { authorFileId } from '@sift/shared/author-files';
import type { FileRecord, FileStatistics, AuthorFileStatistics, ImportReport } from '@sift/shared/contracts';
import { originalKey, type ObjectStore } from '@sift/object-store';
import { ConflictError, NotFoundError } from '../errors.ts';

/**
 * File records: recording, listing, reading and deletion, always within one owner's files. What
 * happens when files arrive is UploadIntake's.
 */
export class FilesService {
  constructor(
    private readonly storage: Storage,
    /** Where originals are kept (local disk or a shared bucket). */
    private readonly objects: ObjectStore,
  ) {}

  /** Writes file records as they are now (a new upload, a status change). */
  async record(...rows: FileRow[]): Promise<void> {
    await this.storage.files.save(...rows);
  }

  /** Bytes of originals the owner keeps (its GENERAL files' sizes). */
  async originalBytes(ownerId: string): Promise<number> {
    const kept = await this.storage.files.list({ ownerId, fileType: 'GENERAL' });
    return kept.reduce((n, f) => n + f.sizeBytes, 0);
  }

  /**
   * The owner's GENERAL files still PROCESSING: its ingest jobs queued or running, which a new job
   * of the owner's queues behind (IngestQueue's turn).
   */
  async unfinished(ownerId: string): Promise<number> {
    return (await this.storage.files.list({ ownerId, fileType: 'GENERAL', status: 'PROCESSING' })).length;
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
    await this.#owned(ownerId, id); // 404 for a file the owner has not
    await this.deleteMany(ownerId, [id]);
  }

  /**
   * Deletes several of the owner's files as `delete` does, with one write of the records, one
   * deletion of the rows and one of the originals for them all. Ids that name no file of the owner
   * (already gone, another account's) are counted as missing.
   *
   * @param ownerId - the files' owner
   * @param ids - file ids (GENERAL or AUTHOR)
   * @returns how many were deleted and how many were missing
   * @throws the storage's error (nothing is then known to be deleted)
   */
  async deleteMany(ownerId: string, ids: string[]): Promise<{ deleted: number; missing: number }> {
    const found = await this.storage.files.list({ ownerId, ids });
    const general = found.filter((f) => f.fileType === 'GENERAL');
    const derived = (await Promise.all(general.map((f) => this.storage.files.authorFilesOf(f.id)))).flat();
    const records = [...new Map([...found, ...derived].map((f) => [f.id, f])).values()];
    await this.storage.files.remove(records);
    await this.storage.removeFileData([...found.map((f) => f.id), ...general.map((f) => authorFileId(f.id))]);
    await this.objects.remove(general.filter((f) => f.filename).map((f) => originalKey(f.filename)));
    return { deleted: found.length, missing: ids.length - found.length };
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
    await this.deleteMany(ownerId, [id]);
  }

  /**
   * One of the owner's uploads that can be read again: a GENERAL file (an AUTHOR file answers its
   * source) that is not being ingested.
   *
   * @throws NotFoundError when it is not the owner's; ConflictError while it is PROCESSING, or when
   *   its original is no longer stored
   */
  async reingestable(ownerId: string, id: string): Promise<FileRow> {
    const file = await this.#owned(ownerId, id);
    const general = file.sourceFileId ? await this.#owned(ownerId, file.sourceFileId) : file;
    if (general.status === 'PROCESSING')
      throw new ConflictError(
        'This file is still being ingested. Wait until it is done, then try again.',
        'FILE_PROCESSING',
      );
    // Reading again starts by removing the rows: without its original the file would be lost.
    if (!general.filename || (await this.objects.size(originalKey(general.filename))) === null)
      throw new ConflictError(
        'The original of this file is no longer stored, so it cannot be read again. Upload it again instead.',
        'ORIGINAL_MISSING',
      );
    return general;
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
