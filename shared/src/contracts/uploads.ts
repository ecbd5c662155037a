/** Uploads (spec sections 3 and 7): upload answers, pacing and upload tracking. */
import { z } from 'zod';
import type { FileRecord } from './files.ts';

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
