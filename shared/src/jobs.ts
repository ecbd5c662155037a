/**
 * The ingest queue's contract, declared once: queue name, job names, payload schemas and retry
 * defaults. The api imports it through `@sift/shared/jobs` to enqueue; the worker to process.
 * Payloads carry ids and paths, never file bytes or secrets.
 */
import { z } from 'zod';
import type { AdminQueueJob } from './contracts/admin.ts';
import { IMPORT_FORMATS, readChoicesSchema } from './contracts/import-report.ts';

export const INGEST_QUEUE = 'ingest';

export const ingestFilePayloadSchema = z.object({
  /** The file record to fill (status PROCESSING when enqueued). */
  fileId: z.string().min(1),
  ownerId: z.string().min(1),
  /** Generated storage name under `DATA_DIR/blobs` (never a user-supplied path). */
  storedName: z.string().regex(/^[A-Za-z0-9._-]+$/),
  /** The name the user uploaded, for messages and the CSV sheet name. */
  originalFilename: z.string(),
  /** The upload session tracking this file's progress, if any. */
  sessionId: z.string().optional(),
  /**
   * The format the api found when it validated the upload, so the worker does not validate it
   * again; absent (a re-ingest of a stored original, an empty upload), the worker validates.
   */
  format: z.enum(IMPORT_FORMATS).optional(),
  /** A re-ingest's choices: the encoding and header rows a person chose from the import report. */
  read: readChoicesSchema.optional(),
  /**
   * A reindex (System Admin's Rebuild): a PROCESSED file stays searchable with its rows, and its
   * AUTHOR file with theirs, until the new ones are all loaded; then its record switches over.
   */
  reindex: z.boolean().optional(),
  /** The id of the API request that queued the job (its logs and the job's share it). */
  requestId: z.string().max(100).optional(),
});
export type IngestFilePayload = z.infer<typeof ingestFilePayloadSchema>;

/** Every job the ingest queue carries, as a discriminated union on `name`. */
export type IngestJob = { name: 'ingest-file'; data: IngestFilePayload };
export type IngestJobName = IngestJob['name'];

/** The one job the ingest queue carries today: ingest a stored upload into its file record. */
export const INGEST_FILE_JOB = 'ingest-file' satisfies IngestJobName;

/** The last turn a job can take (BullMQ's lowest priority, 2^21). */
export const MAX_INGEST_TURN = 2 ** 21;

/** Jobs of the ingest queue by state. */
export interface IngestQueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * The producer's side of the ingest queue, as the api sees it: built once in the composition root
 * (BullMQ there), so no other module names the queue, its job or its options.
 */
export interface IngestQueue {
  /**
   * Queues one file's ingest. Jobs are taken by turn, then in the order queued: an account's first
   * queued file goes before another account's tenth, so one account's many uploads cannot hold
   * every other account's files behind them (fair scheduling between accounts).
   *
   * @param payload - the file to ingest (see ingestFilePayloadSchema)
   * @param options - `jobId`: the file id unless given (a file is queued once; a re-ingest passes
   *   its own); `turn`: the job's place among its account's unfinished jobs, from 1 (the default);
   *   past MAX_INGEST_TURN it counts as that
   * @throws when Redis does not answer
   */
  add(payload: IngestFilePayload, options?: { jobId?: string; turn?: number }): Promise<void>;
  /** Jobs by state, for the administrators' statistics. */
  counts(): Promise<IngestQueueCounts>;
  /**
   * The jobs for the administrators' queue view: active, waiting (in the order they will be
   * taken), delayed and failed (newest first), at most `limit` of each; `ownerEmail` left ''.
   *
   * @throws when Redis does not answer
   */
  jobs(limit: number): Promise<AdminQueueJob[]>;
  /**
   * How long the oldest waiting job has waited, ms; null when none waits.
   *
   * @throws when Redis does not answer
   */
  oldestWaitingMs(): Promise<number | null>;
}

/** What oldestWaitingMs reads of a BullMQ queue (its `getJobs`). */
export interface WaitingJobs {
  getJobs(
    types: ('prioritized' | 'waiting')[],
    start: number,
    end: number,
    asc: boolean,
  ): Promise<({ timestamp: number } | undefined)[]>;
}

/** Most waiting jobs read to find the oldest (see oldestWaitingMs). */
export const OLDEST_WAITING_SCAN = 1_000;

/**
 * How long the oldest job waiting in `queue` has waited, ms (null when none waits): the one queued
 * first among the first OLDEST_WAITING_SCAN waiting jobs in the order they will be taken. Jobs
 * wait by turn (their priority), so the next to be taken is not always the one queued first: an
 * account's second file, queued before another account's first, waits behind it. The metric
 * (`sift_ingest_queue_oldest_waiting_seconds`) and the admin queue view both read this.
 *
 * @throws when Redis does not answer
 */
export async function oldestWaitingMs(queue: WaitingJobs): Promise<number | null> {
  const waiting = await queue.getJobs(['prioritized', 'waiting'], 0, OLDEST_WAITING_SCAN - 1, true);
  const oldest = Math.min(...waiting.flatMap((j) => (j ? [j.timestamp] : [])));
  return Number.isFinite(oldest) ? Math.max(0, Date.now() - oldest) : null;
}

export const INGEST_JOB_SCHEMAS: {
  [K in IngestJobName]: z.ZodType<Extract<IngestJob, { name: K }>['data']>;
} = {
  'ingest-file': ingestFilePayloadSchema,
};

/** Retry defaults for every ingest job: 3 attempts, exponential backoff from 2 s. */
export const INGEST_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** Progress a job reports with `job.updateProgress` (stage n of m, percent within the stage). */
export interface IngestProgress {
  stage: number;
  totalStages: number;
  /** 0–100 within the stage. */
  stageProgress: number;
  stageDescription: string;
}
