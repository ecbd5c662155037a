/** Uploads (spec sections 3 and 7): upload answers, pacing and upload tracking. */
import { z } from 'zod';
import type { FileRecord } from './files.ts';

/**
 * The file name endings Sift ingests (spec section 5), in lower case: Excel workbooks, and text:
 * `.csv`, `.txt` and `.tsv` (delimited, as Web of Science's tab-delimited `savedrecs.txt`), and
 * tagged records: Web of Science's plain text (`.txt`, `.ciw`), RIS (`.ris`), PubMed MEDLINE
 * (`.nbib`, `.txt`); and BibTeX (`.bib`).
 */
export const ACCEPTED_EXTENSIONS = [
  '.xlsx',
  '.xls',
  '.csv',
  '.txt',
  '.tsv',
  '.ciw',
  '.ris',
  '.nbib',
  '.bib',
] as const;

/**
 * Whether `name` ends in one of ACCEPTED_EXTENSIONS, in any case.
 *
 * @param name - a file name
 * @returns whether Sift accepts it
 */
export function hasAcceptedExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * Single-file uploads (`POST /api/file/upload` field `file`, `/api/parallel/upload-single`) answer
 * 201 `{ file, sessionId }`; a file of the wrong type or content is refused (415), an unsafe or
 * corrupt one too (422). Every upload is tracked in an upload session (`/api/upload-tracking`).
 */
export interface UploadResponse {
  file: FileRecord;
  sessionId: string;
}
/**
 * Multi-file uploads (`/api/file/upload-multiple` field `files`, `/api/parallel/upload`,
 * `/api/parallel/upload-batch[/{sessionId}]`, at most 25 files a request) answer 201
 * `{ files, sessionId }`; a refused file is in `files` with status FAILED and its `errorMessage`,
 * and the others go on.
 */
export interface UploadMultipleResponse {
  files: FileRecord[];
  sessionId: string;
}

/** `POST /api/parallel/upload-session` body: a session that batches will be added to until finalized. */
export const createUploadSessionSchema = z.object({
  sessionName: z.string().trim().max(200).optional(),
  /**
   * How many files the client will send to this session: until it is finalized, the session counts
   * them in its total (files not sent yet as waiting, at 0%), so a paced upload does not read done
   * after its first group.
   */
  expectedFiles: z.number().int().min(1).max(100_000).optional(),
});

/** `GET /api/parallel/optimal-batch-size`: how a client should pace its uploads. */
export interface UploadPacing {
  /** Files per request the server handles best. */
  batchSize: number;
  maxFilesPerRequest: number;
  /** Largest accepted file, in bytes. */
  maxFileSizeBytes: number;
}

/** `DELETE /api/upload-tracking/cleanup?daysOld=N` answer. */
export interface TrackingCleanupResponse {
  sessionsRemoved: number;
}

/** Most files one import from the configured FTP/SFTP location may take. */
export const MAX_FILES_PER_IMPORT = 100;

/** A file offered by the import location: name in its directory, size in bytes, last change (ISO 8601). */
export interface ImportLocationFile {
  name: string;
  sizeBytes: number;
  modifiedAt: string | null;
}

/**
 * `GET /api/file/process-ftp`: the configured FTP/SFTP location (scheme, host and directory, never
 * credentials) and its Excel and CSV files by name. 501 when no location is configured, 502 when it
 * cannot be reached.
 */
export interface ImportLocationListing {
  location: string;
  files: ImportLocationFile[];
}

/**
 * `POST /api/file/process-ftp` body: the names to import from the location's listing; none → every
 * Excel and CSV file there (at most MAX_FILES_PER_IMPORT).
 */
export const importFromLocationSchema = z.object({
  files: z.array(z.string().min(1).max(1000)).min(1).max(MAX_FILES_PER_IMPORT).optional(),
});
export type ImportFromLocationRequest = z.infer<typeof importFromLocationSchema>;

/**
 * `POST /api/file/process-ftp` answer (201): the imported files in a new upload session, as an
 * upload's (a corrupt file is FAILED with its reason, the others go on), and the files left where
 * they were with why (too large).
 */
export interface ImportFromLocationResponse extends UploadMultipleResponse {
  location: string;
  skipped: { name: string; reason: string }[];
}
