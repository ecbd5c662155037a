import type { ClickHouseClient } from '@clickhouse/client';
import { uploadBoundMs } from '@sift/shared/contracts';
import { ident } from './sql.ts';
import { nextVersion } from './replacing-version.ts';

export type StoredFileType = 'GENERAL' | 'AUTHOR';
export type StoredFileStatus = 'PROCESSING' | 'PROCESSED' | 'FAILED';

/** A file's metadata row. Dates are ISO 8601 (UTC); sizes in bytes. */
export interface FileRow {
  id: string;
  ownerId: string;
  originalFilename: string;
  /** Generated storage name of the original under `DATA_DIR/blobs` ('' for a derived AUTHOR file). */
  filename: string;
  fileType: StoredFileType;
  status: StoredFileStatus;
  errorMessage: string;
  totalRows: number;
  totalColumns: number;
  /** Distinct header names over all sheets, in first-seen order. */
  columnNames: string[];
  sheetNames: string[];
  /** Header name → physical column of `rows`; '' means the header lives in the overflow map. */
  columnMap: Record<string, string>;
  sizeBytes: number;
  /** For a derived AUTHOR file, the GENERAL file it came from; else ''. */
  sourceFileId: string;
  uploadDate: string;
  /**
   * The `rows.file_id` its rows are stored under, when not the file's own `id` (absent or ''):
   * see rowsIdOf. A reindex loads the rows under the other of the file's two row ids
   * (rowGenerations) and switches this once they are all there.
   */
  rowsId?: string;
}

/** The `rows.file_id` of a file's rows: its record's `rowsId`, else its own id. */
export function rowsIdOf(file: Pick<FileRow, 'id' | 'rowsId'>): string {
  return file.rowsId || file.id;
}

/**
 * The two row ids a file's rows may be stored under: its own id and `{id}.2`. A file's rows are
 * under one of them; a reindex loads them under the other (nextRowsId) and then switches.
 * Removing a file's rows removes both, so nothing of an interrupted reindex is left.
 */
export function rowGenerations(fileId: string): [string, string] {
  return [fileId, `${fileId}.2`];
}

/** The row id a reindex loads a file's rows under: the one of rowGenerations its rows are not under. */
export function nextRowsId(file: Pick<FileRow, 'id' | 'rowsId'>): string {
  const [own, other] = rowGenerations(file.id);
  return rowsIdOf(file) === own ? other : own;
}

/**
 * The record of a file just uploaded: a GENERAL file, PROCESSING (or FAILED with `errorMessage`),
 * nothing ingested yet, uploaded now.
 *
 * @param upload - the stored upload: ids, names, size in bytes, and why it failed, if it did
 * @returns the file's record, not yet written
 */
export function newUploadRecord(upload: {
  id: string;
  ownerId: string;
  originalFilename: string;
  filename: string;
  sizeBytes: number;
  errorMessage?: string | undefined;
}): FileRow {
  return {
    ...upload,
    fileType: 'GENERAL',
    status: upload.errorMessage ? 'FAILED' : 'PROCESSING',
    errorMessage: upload.errorMessage ?? '',
    totalRows: 0,
    totalColumns: 0,
    columnNames: [],
    sheetNames: [],
    columnMap: {},
    sourceFileId: '',
    uploadDate: new Date().toISOString(),
  };
}

/** Which files a listing returns. */
/** A set of files as FilesRepository.selection reads it. */
export interface FileSelection {
  files: number;
  /** XOR of the ids' hashes, as a decimal string. */
  digest: string;
}

export interface FileFilter {
  ownerId: string;
  fileType?: StoredFileType;
  status?: StoredFileStatus;
  /** Only these ids (when given). */
  ids?: string[];
  /** Never these ids. */
  excludedIds?: string[];
  /** Upload date bounds, ISO 8601, inclusive. */
  uploadedFrom?: string;
  uploadedTo?: string;
}

/**
 * The filter of {@link FilesRepository.list} as a predicate on records already read (the owner, the
 * type, the status, the id lists and the upload-date bounds; deleted records are never read).
 *
 * @param filter - as FilesRepository.list takes it
 * @returns whether a record passes the filter
 */
export function fileFilterPredicate(filter: FileFilter): (file: FileRow) => boolean {
  const ids = filter.ids && new Set(filter.ids);
  const excluded = new Set(filter.excludedIds ?? []);
  const from = filter.uploadedFrom ? uploadBoundMs(filter.uploadedFrom) : -Infinity;
  const to = filter.uploadedTo ? uploadBoundMs(filter.uploadedTo) : Infinity;
  return (f) => {
    if (f.ownerId !== filter.ownerId || excluded.has(f.id) || (ids && !ids.has(f.id))) return false;
    if ((filter.fileType && f.fileType !== filter.fileType) || (filter.status && f.status !== filter.status))
      return false;
    const at = Date.parse(f.uploadDate);
    return at >= from && at <= to;
  };
}

interface RawFile {
  id: string;
  owner_id: string;
  original_filename: string;
  filename: string;
  file_type: StoredFileType;
  status: StoredFileStatus;
  error_message: string;
  total_rows: number;
  total_columns: number;
  column_names: string[];
  sheet_names: string[];
  column_map: string;
  size_bytes: number;
  source_file_id: string;
  upload_ms: number;
  rows_id: string;
}

const COLUMNS = `id, owner_id, original_filename, filename, file_type, status, error_message, total_rows, total_columns,
  column_names, sheet_names, column_map, size_bytes, source_file_id, toUnixTimestamp64Milli(upload_date) AS upload_ms, rows_id`;

/**
 * Told, after records were written, which owners' records changed (caches elsewhere compare
 * versions; see RecordVersions in \@sift/shared/redis). Never rejects: a failure is its own to report.
 */
export type RecordsChanged = (owners: readonly string[] | 'all') => Promise<void>;

/** File records in `{database}.files` (ReplacingMergeTree, read with FINAL). */
export class FilesRepository {
  readonly #client: ClickHouseClient;
  readonly #table: string;
  readonly #changed: RecordsChanged;

  /** `changed`: called after every write with the owners of the records written. */
  constructor(client: ClickHouseClient, database: string, changed: RecordsChanged = async () => {}) {
    this.#client = client;
    this.#table = `${ident(database)}.files`;
    this.#changed = changed;
  }

  /** Writes whole records (insert or update). */
  async save(...files: FileRow[]): Promise<void> {
    if (files.length) await this.#write(files, 0);
  }

  /** Marks the records deleted (their rows are removed by the caller through RowsRepository). */
  async remove(files: FileRow[]): Promise<void> {
    if (files.length) await this.#write(files, 1);
  }

  /**
   * True when this node has ever held a record with this id, deleted or not (a replica that has
   * not caught up with the write has none).
   */
  async seen(id: string): Promise<boolean> {
    const rs = await this.#client.query({
      query: `SELECT count() AS n FROM ${this.#table} WHERE id = {id:String}`,
      query_params: { id },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number }>();
    return Number(row?.n ?? 0) > 0;
  }

  /** The record with this id, or null. With `ownerId`, another account's file is null too. */
  async get(id: string, ownerId?: string): Promise<FileRow | null> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS} FROM ${this.#table} FINAL
              WHERE id = {id:String} AND is_deleted = 0 ${ownerId === undefined ? '' : 'AND owner_id = {ownerId:String}'}
              LIMIT 1`,
      query_params: { id, ownerId: ownerId ?? '' },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<RawFile>();
    return row ? toFile(row) : null;
  }

  /** Every file record of every account (administration only), newest upload first. */
  async listAll(): Promise<FileRow[]> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS} FROM ${this.#table} FINAL WHERE is_deleted = 0 ORDER BY upload_date DESC, id`,
      format: 'JSONEachRow',
    });
    return (await rs.json<RawFile>()).map(toFile);
  }

  /**
   * Which files there are (of one owner, or of every account): how many, and a digest of their ids
   * that changes when any is added or removed. What a confirmation of a destructive call is bound
   * to (administration only).
   */
  async selection(ownerId?: string): Promise<FileSelection> {
    const rs = await this.#client.query({
      query: `SELECT count() AS n, toString(groupBitXor(cityHash64(id))) AS digest FROM ${this.#table} FINAL
              WHERE is_deleted = 0 ${ownerId === undefined ? '' : 'AND owner_id = {ownerId:String}'}`,
      query_params: ownerId === undefined ? {} : { ownerId },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number | string; digest: string }>();
    return { files: Number(row?.n ?? 0), digest: row?.digest ?? '0' };
  }

  /** Number of file records of every account (administration only). */
  async countAll(): Promise<number> {
    const rs = await this.#client.query({
      query: `SELECT count() AS n FROM ${this.#table} FINAL WHERE is_deleted = 0`,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number }>();
    return Number(row?.n ?? 0);
  }

  /** The owner's files matching the filter, newest upload first. */
  async list(filter: FileFilter): Promise<FileRow[]> {
    const where = ['owner_id = {ownerId:String}', 'is_deleted = 0'];
    if (filter.fileType) where.push('file_type = {fileType:String}');
    if (filter.status) where.push('status = {status:String}');
    if (filter.ids) where.push('id IN {ids:Array(String)}');
    if (filter.excludedIds?.length) where.push('id NOT IN {excludedIds:Array(String)}');
    if (filter.uploadedFrom)
      where.push("upload_date >= parseDateTime64BestEffort({uploadedFrom:String}, 3, 'UTC')");
    if (filter.uploadedTo)
      where.push("upload_date <= parseDateTime64BestEffort({uploadedTo:String}, 3, 'UTC')");
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS} FROM ${this.#table} FINAL WHERE ${where.join(' AND ')} ORDER BY upload_date DESC, id`,
      query_params: Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)),
      format: 'JSONEachRow',
    });
    return (await rs.json<RawFile>()).map(toFile);
  }

  /** The AUTHOR files of a GENERAL file. */
  async authorFilesOf(sourceFileId: string): Promise<FileRow[]> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS} FROM ${this.#table} FINAL WHERE source_file_id = {sourceFileId:String} AND is_deleted = 0`,
      query_params: { sourceFileId },
      format: 'JSONEachRow',
    });
    return (await rs.json<RawFile>()).map(toFile);
  }

  async #write(files: FileRow[], isDeleted: 0 | 1): Promise<void> {
    await this.#client.insert({
      table: this.#table,
      format: 'JSONEachRow',
      values: files.map((f) => ({
        id: f.id,
        owner_id: f.ownerId,
        original_filename: f.originalFilename,
        filename: f.filename,
        file_type: f.fileType,
        status: f.status,
        error_message: f.errorMessage,
        total_rows: f.totalRows,
        total_columns: f.totalColumns,
        column_names: f.columnNames,
        sheet_names: f.sheetNames,
        column_map: JSON.stringify(f.columnMap),
        size_bytes: f.sizeBytes,
        source_file_id: f.sourceFileId,
        upload_date: f.uploadDate,
        rows_id: f.rowsId ?? '',
        version: nextVersion(),
        is_deleted: isDeleted,
      })),
    });
    await this.#changed(files.map((f) => f.ownerId));
  }
}

function toFile(row: RawFile): FileRow {
  return {
    id: row.id,
    ownerId: row.owner_id,
    originalFilename: row.original_filename,
    filename: row.filename,
    fileType: row.file_type,
    status: row.status,
    errorMessage: row.error_message,
    totalRows: Number(row.total_rows),
    totalColumns: Number(row.total_columns),
    columnNames: row.column_names,
    sheetNames: row.sheet_names,
    // Without a prototype: a header may be called `constructor` or `__proto__`.
    columnMap: Object.assign(Object.create(null), row.column_map ? JSON.parse(row.column_map) : {}) as Record<
      string,
      string
    >,
    sizeBytes: Number(row.size_bytes),
    sourceFileId: row.source_file_id,
    uploadDate: new Date(Number(row.upload_ms)).toISOString(),
    ...(row.rows_id ? { rowsId: row.rows_id } : {}),
  };
}
