import { createLogger, logFunction, type Logger } from '@sift/shared/logger';
import { hostname } from 'node:os';
import {
  DelayedError,
  UnrecoverableError,
  WaitingError,
  Worker,
  type ConnectionOptions,
  type Job,
} from 'bullmq';
import {
  INGEST_JOB_SCHEMAS,
  INGEST_QUEUE,
  type IngestJob,
  type IngestFilePayload,
  type IngestJobName,
} from '@sift/shared/jobs';
import { nextRowsId, nodeUnreachable, type Storage } from '@sift/clickhouse';
import { authorFileId } from '@sift/shared/author-files';
import type { UploadTracker } from '@sift/shared/upload-tracking';
import { InvalidFileError } from '@sift/spreadsheet';
import { RecordNotReplicatedError, serverFailureMessage } from './failure-message.ts';
import { failFile, ingestFile, type IngestCheckpoints } from './pipeline/ingest-file.ts';
import type { PublishedGeneral } from './pipeline/stages.ts';
import { ProgressSink } from './progress-sink.ts';
import type { IngestDeps } from './pipeline/types.ts';

export interface IngestWorkerOptions extends IngestDeps {
  /** Redis connection for the worker (BullMQ sets `maxRetriesPerRequest: null` on its own connections). */
  connection: ConnectionOptions;
  /** Key prefix of the queue in Redis (tests use a unique one). */
  prefix: string;
  /** Jobs processed at once; ingest is CPU-bound, so about the number of cores. */
  concurrency?: number;
  /** Where to log: each job's lines carry its file and the id of the request that queued it. */
  logger?: Logger;
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
   * job is picked up again: from the start, or from its checkpoint. Default 30,000.
   */
  lockDurationMs?: number;
  /** How long a job waits for a ClickHouse node that cannot be reached, ms (default NODE_WAIT_MS). */
  nodeWaitMs?: number;
}

/** Why a file failed whose processing stopped every time it was tried (see maxStalls). */
export const STALLED_MESSAGE =
  'Processing this file stopped unexpectedly each time it was tried; it may be too large or malformed. Check that it opens in Excel, save it again and re-upload it.';

/**
 * Marks the file FAILED with `message` (and its upload session's entry) unless its ingest has ended
 * already: the file is PROCESSING, or it is PROCESSED and its AUTHOR file is still being derived.
 */
async function failIfProcessing(
  options: Pick<IngestWorkerOptions, 'storage'>,
  payload: IngestFilePayload,
  message: string,
  sink: ProgressSink,
): Promise<void> {
  const { files } = options.storage;
  const file = await files.get(payload.fileId, payload.ownerId);
  const author = file?.status === 'PROCESSED' ? await files.get(authorFileId(payload.fileId)) : null;
  if (file?.status !== 'PROCESSING' && author?.status !== 'PROCESSING') return;
  await failFile(options.storage, payload, message);
  await sink.failed(message);
}

/**
 * A reindex that failed for good leaves its file as it was: PROCESSED, searchable with the rows its
 * record points at; only what the reindex loaded beside them goes. True when that is the case
 * (a reindex of a file that is PROCESSED); otherwise the caller fails the file.
 */
async function keptOnFailedReindex(storage: Storage, payload: IngestFilePayload): Promise<boolean> {
  if (!payload.reindex) return false;
  const file = await storage.files.get(payload.fileId, payload.ownerId);
  if (file?.status !== 'PROCESSED') return false;
  await storage.rows.deleteFiles([nextRowsId(file)]);
  return true;
}

/**
 * The job's checkpoints (BullMQ's step-job pattern): the GENERAL file's publication, kept in the
 * job's data under `checkpoint`, so a retry or a job taken over from a dead worker resumes there.
 */
function jobCheckpoints(job: Job): IngestCheckpoints {
  const data = job.data as { checkpoint?: { published?: PublishedGeneral } };
  return {
    published: data.checkpoint?.published ?? null,
    async save(published) {
      await job.updateData({ ...(job.data as object), checkpoint: { published } });
    },
  };
}

/**
 * How long an ingest waits for a ClickHouse node that cannot be reached before it is retried as
 * any other error (and then fails), ms: a shard down for maintenance or a restart is waited for.
 */
export const NODE_WAIT_MS = 30 * 60_000;

/** Between two tries of an ingest waiting for a node, ms. */
const NODE_RETRY_MS = 5_000;

/**
 * When `error` says a ClickHouse node could not be reached and the job has waited less than
 * `waitMs` for one: when to try again, and since when it waits (epoch ms). Else null.
 */
function nodeAwayRetry(job: Job, error: unknown, waitMs: number): { at: number; since: number } | null {
  if (!nodeUnreachable(error)) return null;
  const now = Date.now();
  const since = Number((job.data as { nodeAwaySince?: unknown }).nodeAwaySince) || now;
  return now - since < waitMs ? { at: now + NODE_RETRY_MS, since } : null;
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
  const logger = options.logger ?? createLogger('worker');
  const log = logFunction(logger);
  /** Where a job's lines go: with its file and the id of the request that queued it. */
  const jobLog = ({ fileId, requestId }: { fileId?: unknown; requestId?: unknown }) =>
    logFunction(logger.child({ fileId, ...(typeof requestId === 'string' && { requestId }) }));
  const handlers: Handlers = {
    'ingest-file': async (job, token, signal) => {
      const payload = INGEST_JOB_SCHEMAS['ingest-file'].parse(job.data);
      const sink = new ProgressSink(job, options.tracker, payload, jobLog(payload));
      try {
        const written = await ingestFile(options, payload, sink.report, signal, jobCheckpoints(job));
        await sink.completed(written);
        return { files: written.map((f) => f.id) };
      } catch (e) {
        if (signal?.aborted) {
          // The process is stopping: hand the job back untouched, for this or another worker.
          await job.moveToWait(token);
          await sink.handedBack();
          throw new WaitingError();
        }
        const away = nodeAwayRetry(job, e, options.nodeWaitMs ?? NODE_WAIT_MS);
        if (away) {
          // A ClickHouse node the file needs is away (its shard is down): the job waits for it
          // without spending a try, and starts again (clearing what it loaded) once it is back.
          logger.warn(
            { fileId: payload.fileId, requestId: payload.requestId, err: e },
            `Ingest of file ${payload.fileId} waits for a ClickHouse node to be back`,
          );
          await (job as Job).updateData({ ...(job.data as object), nodeAwaySince: away.since });
          await job.moveToDelayed(away.at, token);
          await sink.waitingForNode();
          throw new DelayedError();
        }
        const unrecoverable = e instanceof InvalidFileError;
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (unrecoverable || lastAttempt) {
          const message = unrecoverable ? e.message : serverFailureMessage(e);
          if (!(await keptOnFailedReindex(options.storage, payload)))
            await failFile(options.storage, payload, message, {
              recordUnseen: e instanceof RecordNotReplicatedError,
            });
          await sink.failed(message);
        } else {
          await sink.retrying();
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
    const data = (job.data ?? {}) as { fileId?: unknown; requestId?: unknown };
    if (!(e instanceof UnrecoverableError)) jobLog(data)(`Ingest of file ${String(data.fileId)} failed`, e);
    const final = e instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    const payload = INGEST_JOB_SCHEMAS['ingest-file'].safeParse(job.data);
    // A job that failed without its handler running (it stalled too often: its worker died or hung
    // on the file each time) must still leave its file FAILED with a reason.
    if (final && payload.success) {
      const sink = new ProgressSink(null, options.tracker, payload.data, log);
      failIfProcessing(options, payload.data, STALLED_MESSAGE, sink).catch((error: unknown) =>
        log(`Could not mark file ${payload.data.fileId} as failed`, error),
      );
    }
  });
  return worker;
}
