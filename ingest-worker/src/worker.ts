import { UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { failFile, ingestFile, type IngestDeps } from './ingest.ts';
import { INGEST_JOB_SCHEMAS, INGEST_QUEUE, type IngestJob, type IngestJobName } from './jobs.ts';
import { InvalidFileError } from './parse/index.ts';

export interface IngestWorkerOptions extends IngestDeps {
  /** Redis connection for the worker (BullMQ sets `maxRetriesPerRequest: null` on its own connections). */
  connection: ConnectionOptions;
  /** Key prefix of the queue in Redis (tests use a unique one). */
  prefix: string;
  /** Jobs processed at once; ingest is CPU-bound, so about the number of cores. */
  concurrency?: number;
  /** Where to log failures. */
  log?: (message: string, detail?: unknown) => void;
}

type Handlers = {
  [K in IngestJobName]: (job: Job<Extract<IngestJob, { name: K }>['data']>) => Promise<unknown>;
};

/**
 * Starts the BullMQ worker of the ingest queue. A file the user must fix fails at once (no retry);
 * other errors are retried per INGEST_JOB_OPTIONS, and the file is marked FAILED after the last try.
 * Close it with `worker.close()` on shutdown.
 */
export function startIngestWorker(options: IngestWorkerOptions): Worker {
  const log = options.log ?? ((m: string, d?: unknown) => console.error(m, d ?? ''));
  const handlers: Handlers = {
    'ingest-file': async (job) => {
      const payload = INGEST_JOB_SCHEMAS['ingest-file'].parse(job.data);
      try {
        const written = await ingestFile(options, payload, (p) => job.updateProgress({ ...p }));
        return { files: written.map((f) => f.id) };
      } catch (e) {
        const unrecoverable = e instanceof InvalidFileError;
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (unrecoverable || lastAttempt) {
          const message = unrecoverable
            ? e.message
            : 'The file could not be processed because of a server error. Please try uploading it again.';
          await failFile(options.storage, payload, message);
        }
        if (unrecoverable) throw new UnrecoverableError(e.message);
        throw e;
      }
    },
  };
  const worker = new Worker(
    INGEST_QUEUE,
    async (job: Job) => {
      const handler = handlers[job.name as IngestJobName];
      if (!handler) throw new UnrecoverableError(`No handler for job ${job.name}`);
      return handler(job);
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency ?? 2 },
  );
  worker.on('error', (e) => log('Ingest worker error', e));
  worker.on('failed', (job, e) => {
    if (job && !(e instanceof UnrecoverableError))
      log(`Ingest of file ${String(job.data?.fileId)} failed`, e);
  });
  return worker;
}
