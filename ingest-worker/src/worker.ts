import { hostname } from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import {
  INGEST_JOB_SCHEMAS,
  INGEST_QUEUE,
  type IngestJob,
  type IngestFilePayload,
  type IngestJobName,
  type IngestProgress,
} from '@sift/shared/jobs';
import { authorFileId } from '@sift/shared/author-files';
import type { UploadTracker } from '@sift/shared/upload-tracking';
import { InvalidFileError } from '@sift/spreadsheet';
import { failFile, ingestFile } from './pipeline/ingest-file.ts';
import type { IngestDeps } from './pipeline/types.ts';

export interface IngestWorkerOptions extends IngestDeps {
  /** Redis connection for the worker (BullMQ sets `maxRetriesPerRequest: null` on its own connections). */
  connection: ConnectionOptions;
  /** Key prefix of the queue in Redis (tests use a unique one). */
  prefix: string;
  /** Jobs processed at once; ingest is CPU-bound, so about the number of cores. */
  concurrency?: number;
  /** Where to log failures. */
  log?: (message: string, detail?: unknown) => void;
  /** Upload tracking to keep current (jobs with a sessionId). */
  tracker: UploadTracker;
  /**
   * Times a job may stall (its worker died or hung) and be taken up again before it fails for good
   * (BullMQ `maxStalledCount`). Default 1.
   */
  maxStalls?: number;
  /**
   * How long a job's lock lasts without renewal, in ms (BullMQ `lockDuration`; the stalled-job check
   * runs at the same interval). A worker that dies mid-file loses its lock after this long and the
   * job is picked up again, from scratch. Default 30,000.
   */
  lockDurationMs?: number;
}

/** Why a file failed whose processing stopped every time it was tried (see maxStalls). */
export const STALLED_MESSAGE =
  'Processing this file stopped unexpectedly each time it was tried; it may be too large or malformed. Check that it opens in Excel, save it again and re-upload it.';

/**
 * Marks the file FAILED with `message` (and its upload session's entry) unless its ingest has ended
 * already: the file is PROCESSING, or it is PROCESSED and its AUTHOR file is still being derived.
 */
async function failIfProcessing(
  options: Pick<IngestWorkerOptions, 'storage' | 'tracker'>,
  payload: IngestFilePayload,
  message: string,
): Promise<void> {
  const { files } = options.storage;
  const file = await files.get(payload.fileId, payload.ownerId);
  const author = file?.status === 'PROCESSED' ? await files.get(authorFileId(payload.fileId)) : null;
  if (file?.status !== 'PROCESSING' && author?.status !== 'PROCESSING') return;
  await failFile(options.storage, payload, message);
  if (payload.sessionId) {
    await options.tracker.updateFile(payload.sessionId, payload.fileId, {
      status: 'FAILED',
      errorMessage: message,
      stageDescription: 'Failed',
    });
  }
}

/** Overall percent from stage n of m and the stage's percent; 100 is kept for "searchable". */
export function overallPercent(p: IngestProgress): number {
  return Math.min(99, Math.round(((p.stage - 1 + p.stageProgress / 100) / p.totalStages) * 1000) / 10);
}

type Handlers = {
  [K in IngestJobName]: (
    job: Job<Extract<IngestJob, { name: K }>['data']>,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ) => Promise<unknown>;
};

/**
 * Starts the BullMQ worker of the ingest queue. A file the user must fix fails at once (no retry);
 * other errors are retried per INGEST_JOB_OPTIONS, and the file is marked FAILED after the last try.
 * Close it with `worker.close()` on shutdown.
 */
export function startIngestWorker(options: IngestWorkerOptions): Worker {
  const log = options.log ?? ((m: string, d?: unknown) => console.error(m, d ?? ''));
  const handlers: Handlers = {
    'ingest-file': async (job, token, signal) => {
      const payload = INGEST_JOB_SCHEMAS['ingest-file'].parse(job.data);
      const { sessionId, fileId } = payload;
      const track = async (patch: Parameters<UploadTracker['updateFile']>[2]) => {
        if (!sessionId) return;
        // Tracking is for display: a Redis hiccup here must not fail the ingest.
        await options.tracker
          .updateFile(sessionId, fileId, patch)
          .catch((e: unknown) => log('Tracking update failed', e));
      };
      try {
        const written = await ingestFile(
          options,
          payload,
          async (p) => {
            await job.updateProgress({ ...p });
            await track({
              status: p.stage === 1 ? 'PREPROCESSING' : 'PROCESSING',
              currentStage: p.stage,
              totalStages: p.totalStages,
              stageProgress: p.stageProgress,
              stageDescription: p.stageDescription,
              progressPercentage: overallPercent(p),
            });
          },
          signal,
        );
        // The AUTHOR file joins the session before its source completes, so the session
        // never looks complete without it.
        const authorFiles = written.filter((f) => f.fileType === 'AUTHOR');
        if (sessionId && authorFiles.length) {
          await options.tracker
            .addFiles(
              sessionId,
              authorFiles.map((f) => ({
                fileId: f.id,
                fileName: f.originalFilename,
                fileType: 'AUTHOR',
                status: 'COMPLETED',
              })),
            )
            .catch((e: unknown) => log('Tracking update failed', e));
        }
        await track({
          status: 'COMPLETED',
          progressPercentage: 100,
          stageProgress: 100,
          stageDescription: 'Ready to search',
        });
        return { files: written.map((f) => f.id) };
      } catch (e) {
        if (signal?.aborted) {
          // The process is stopping: hand the job back untouched, for this or another worker.
          await job.moveToWait(token);
          await track({ status: 'PENDING', stageDescription: 'Waiting to be processed' });
          throw new WaitingError();
        }
        const unrecoverable = e instanceof InvalidFileError;
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (unrecoverable || lastAttempt) {
          const message = unrecoverable
            ? e.message
            : 'The file could not be processed because of a server error. Please try uploading it again.';
          await failFile(options.storage, payload, message);
          await track({ status: 'FAILED', errorMessage: message, stageDescription: 'Failed' });
        } else {
          await track({ status: 'PENDING', stageDescription: 'Retrying after an error' });
        }
        if (unrecoverable) throw new UnrecoverableError(e.message);
        throw e;
      }
    },
  };
  const worker = new Worker(
    INGEST_QUEUE,
    // Three parameters: BullMQ passes the abort signal only to a processor that declares it.
    async (job: Job, token?: string, signal?: AbortSignal) => {
      const handler = handlers[job.name as IngestJobName];
      if (!handler) throw new UnrecoverableError(`No handler for job ${job.name}`);
      return handler(job, token, signal);
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 2,
      // Recorded on each job it takes (processedBy): which process handled a file.
      name: `${hostname()}:${process.pid}`,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.lockDurationMs ?? 30_000,
      maxStalledCount: options.maxStalls ?? 1,
    },
  );
  worker.on('error', (e) => log('Ingest worker error', e));
  worker.on('failed', (job, e) => {
    if (!job) return;
    if (!(e instanceof UnrecoverableError)) log(`Ingest of file ${String(job.data?.fileId)} failed`, e);
    const final = e instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const payload = INGEST_JOB_SCHEMAS['ingest-file'].safeParse(job.data);
    // A job that failed without its handler running (it stalled too often: its worker died or hung
    // on the file each time) must still leave its file FAILED with a reason.
    if (final && payload.success) {
      failIfProcessing(options, payload.data, STALLED_MESSAGE).catch((error: unknown) =>
        log(`Could not mark file ${payload.data.fileId} as failed`, error),
      );
    }
  });
  return worker;
}
