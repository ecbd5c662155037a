/** File records (spec section 3): uploads, their AUTHOR files, and the caller's files in numbers. */
import { z } from 'zod';

export const FILE_TYPES = ['GENERAL', 'AUTHOR'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** PROCESSING while ingesting, PROCESSED when searchable, FAILED otherwise (spec: any other value is failed). */
export type FileStatus = 'PROCESSING' | 'PROCESSED' | 'FAILED';

/** A file record (spec section 3). Dates are ISO 8601 strings (UTC). */
export interface FileRecord {
  id: string;
  originalFilename: string;
  /** Generated storage name of the original (never a user path). */
  filename: string;
  fileType: FileType;
  status: FileStatus;
  /** Rows ingested over all sheets (header rows excluded). */
  totalRows: number;
  /** Same as totalRows (the spec names both). */
  rowCount: number;
  totalColumns: number;
  /** Distinct column names over all sheets, in first-seen order. */
  columnNames: string[];
  sheetNames: string[];
  uploadDate: string;
  /** Size of the original upload in bytes. */
  sizeBytes: number;
  /** Why ingest failed (FAILED only), else null. */
  errorMessage: string | null;
  /** For an AUTHOR file: the GENERAL file it was derived from, else null. */
  sourceFileId: string | null;
}

/**
 * `GET /api/file/upload-stats` and `GET /api/file/statistics`: the caller's files in numbers.
 * Counts are of file records (AUTHOR files included); rows exclude header rows; bytes are uploads'.
 */
export interface FileStatistics {
  totalFiles: number;
  generalFiles: number;
  authorFiles: number;
  processedFiles: number;
  processingFiles: number;
  failedFiles: number;
  /** Rows of PROCESSED GENERAL files (searchable in the general search). */
  generalRows: number;
  /** Rows of PROCESSED AUTHOR files (searchable in the Authors search). */
  authorRows: number;
  /** Distinct column names over PROCESSED GENERAL files. */
  distinctColumns: number;
  totalSizeBytes: number;
  /** ISO 8601, or null with no files. */
  lastUploadDate: string | null;
}

/** Files one deletion may name. */
export const MAX_FILES_PER_DELETION = 10_000;

/**
 * `POST /api/file/deletions`: delete several of the caller's files at once, by id (GENERAL files
 * take their AUTHOR files with them). The server runs it to the end whatever the browser does, and
 * answers 202 with the deletion (FileDeletion) to follow at `GET /api/file/deletions/{id}`.
 */
export const fileDeletionRequestSchema = z.object({
  ids: z
    .array(z.string().min(1).max(200), 'ids must list the files to delete.')
    .min(1, 'ids must list the files to delete.')
    .max(MAX_FILES_PER_DELETION, `At most ${MAX_FILES_PER_DELETION} files can be deleted at once.`),
});
export type FileDeletionRequest = z.infer<typeof fileDeletionRequestSchema>;

/** A deletion of several files as it goes (kept a day after it started). */
export interface FileDeletion {
  id: string;
  /** Files named. */
  total: number;
  /** Deleted so far. */
  deleted: number;
  /** Not found: already gone (an AUTHOR file goes with its GENERAL file), or not the caller's. */
  missing: number;
  /** Files that could not be deleted, with why; they are left as they were. */
  failed: { fileId: string; error: string }[];
  /** True once every named file is deleted, missing or failed. */
  done: boolean;
  startedAt: string;
  finishedAt: string | null;
}

/**
 * `GET /api/file/preprocessed` and `GET /api/file/preprocessed/status/{status}` query: the caller's
 * AUTHOR files (the "preprocessed" files derived from uploads with author and email columns),
 * sorted by `sortBy` (createdAt = upload date, originalFilename, totalRows) in `sortOrder`. The
 * answer is `FileRecord[]`. `DELETE /api/file/preprocessed/{id}` removes one AUTHOR file (204).
 */
export const authorFilesListSchema = z.object({
  sortBy: z.enum(['createdAt', 'originalFilename', 'totalRows']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});

/** `GET /api/file/preprocessed/statistics`: the caller's AUTHOR files in numbers. */
export interface AuthorFileStatistics {
  totalFiles: number;
  processedFiles: number;
  failedFiles: number;
  /** Author rows searchable in the Authors search (PROCESSED files). */
  totalRows: number;
  /** Upload date of the newest one (ISO 8601), or null. */
  lastCreatedAt: string | null;
}

/**
 * The columns a set of files offers, as `GET /api/file/columns` answers and the search screens show
 * them: distinct column names in first-seen order, trimmed (as search criteria are), blanks left out.
 *
 * @param files - the files, each with its column names
 * @returns the columns, in first-seen order
 */
export function unionColumns(files: readonly { columnNames: readonly string[] }[]): string[] {
  const seen = new Set<string>();
  for (const file of files)
    for (const raw of file.columnNames) {
      const name = raw.trim();
      if (name) seen.add(name);
    }
  return [...seen];
}
