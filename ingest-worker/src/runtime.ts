/**
 * The ingest worker's one composition root, used by the all-in-one process (`startSift`) and the
 * stand-alone worker (`main.ts`) alike: storage, upload tracking and the BullMQ worker wired from
 * one WorkerConfig, so neither can start a worker that lacks a part.
 */
import path from 'node:path';
import { Queue, type Worker } from 'bullmq';
import { openStorage, type Storage } from '@sift/clickhouse';
import { openObjectStore } from '@sift/object-store';
import { failFastRedis, UploadTracker } from '@sift/shared/upload-tracking';
import { Redis } from 'ioredis';
import { checkRedis, RecordVersions, withRedisLock } from '@sift/shared/redis';
import { settlesWithin } from '@sift/shared/settle';
import { readinessProbes, type ReadinessProbes } from '@sift/shared/health';
import { createLogger, logFunction, type Logger } from '@sift/shared/logger';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import type { WorkerConfig } from './config.ts';
import { disablePretenuring } from './pretenuring.ts';
import { STRANDED_SWEEP_MS, StrandedFiles } from './stranded.ts';
import { watchQueueMetrics } from './queue-metrics.ts';
import { startIngestWorker } from './worker.ts';

export interface IngestRuntime {
  worker: Worker;
  storage: Storage;
  tracker: UploadTracker;
  /** How to ask what the worker needs (its engine, Redis, the originals' store) if it answers. */
  probes: ReadinessProbes;
  /**
   * Drains the worker: jobs in flight get `config.shutdownTimeoutMs` to finish, then are stopped and
   * handed back to the queue for another worker; then closes the connections this runtime opened
   * (not a storage it was given).
   */
  close(): Promise<void>;
}

export interface IngestRuntimeOptions {
  config: WorkerConfig;
  /** A storage the process has open already (the all-in-one process shares its own); else opened from `config`. */
  storage?: Storage;
  /** Where to log (default: a JSON logger of its own on standard error, at `config.logLevel`). */
  logger?: Logger;
}

/**
 * Opens the ClickHouse `config` names (embedded chDB under `dataDir` when no URL is set), migrated.
 * A server is shared by many processes, so its migrations run under a Redis lock (one process
 * applies them, the others wait and find them applied); embedded chDB belongs to one process.
 * Every write of account and file records bumps their owners' versions in Redis (RecordVersions),
 * so record caches in every process see it; closing the storage closes that connection.
 */
export async function openConfiguredStorage(config: WorkerConfig, logger?: Logger): Promise<Storage> {
  const lockKey = `${config.queuePrefix}:lock:migrations:${config.clickhouseDatabase}`;
  // Queues commands while it connects (the first write may come before that), fails within seconds.
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2000 });
  redis.on('error', () => undefined);
  const versions = new RecordVersions(redis, config.queuePrefix);
  try {
    const storage = await openStorage({
      url: config.clickhouseUrl,
      user: config.clickhouseUser,
      password: config.clickhousePassword,
      database: config.clickhouseDatabase,
      cluster: config.clickhouseCluster,
      dataDir: config.dataDir,
      logger: logger?.child({ module: 'clickhouse-client' }),
      migrationLock: config.clickhouseUrl
        ? (work) => withRedisLock(config.redisUrl, lockKey, work)
        : undefined,
      // Processes sharing a server update one account's people one at a time.
      accountLock: config.clickhouseUrl
        ? (account, work) =>
            withRedisLock(config.redisUrl, `${config.queuePrefix}:lock:people:${account}`, work)
        : undefined,
      onRecordsChanged: (owners) => versions.bump(owners),
    });
    return {
      ...storage,
      async close() {
        await storage.close();
        redis.disconnect();
      },
    };
  } catch (e) {
    redis.disconnect();
    throw e;
  }
}

/**
 * Starts an ingest worker: opens the storage (unless given), a Redis connection for upload tracking
 * that fails fast (tracking is for display; the queue's own connections wait and reconnect), and
 * the worker of the ingest queue. Rejects when ClickHouse cannot be opened.
 */
export async function startIngestRuntime(options: IngestRuntimeOptions): Promise<IngestRuntime> {
  const { config } = options;
  const logger = options.logger ?? createLogger('worker', config.logLevel);
  const log = logFunction(logger);
  disablePretenuring();
  if (!options.storage) {
    // A process of its own (the stand-alone worker); the all-in-one process has checked already.
    const redis = await checkRedis(config.redisUrl);
    if (redis.warning) logger.warn(redis.warning);
  }
  const storage = options.storage ?? (await openConfiguredStorage(config, logger));
  const tracking = failFastRedis(config.redisUrl, (e) => log('Redis error', e.message));
  const tracker = new UploadTracker(tracking, config.queuePrefix);
  const originals = openObjectStore(config);
  const worker = startIngestWorker({
    storage,
    originals,
    tmpDir: path.join(config.dataDir, 'tmp'),
    connection: { url: config.redisUrl },
    prefix: config.queuePrefix,
    tracker,
    logger,
    lockDurationMs: config.ingestLockMs,
    maxStalls: config.ingestMaxStalls,
    concurrency: config.workerConcurrency,
    csvChunkBytes: config.csvChunkBytes,
    csvLoader: config.csvLoader,
    readIsolation: config.readIsolation,
    ...(config.authorJoinRunRows !== undefined && { authorJoinRunRows: config.authorJoinRunRows }),
  });
  // Files left PROCESSING when their ingest ended without saying so (see stranded.ts).
  const queue = new Queue(INGEST_QUEUE, { connection: { url: config.redisUrl }, prefix: config.queuePrefix });
  queue.on('error', () => undefined);
  watchQueueMetrics(queue);
  const stranded = new StrandedFiles(storage, queue, log);
  const sweeps = setInterval(() => {
    stranded.sweep().catch((e: unknown) => log('Could not look for files left PROCESSING', e));
  }, STRANDED_SWEEP_MS);
  sweeps.unref();
  return {
    worker,
    storage,
    tracker,
    probes: readinessProbes({ storage, redis: tracking, objects: originals }),
    async close() {
      clearInterval(sweeps);
      await drain(worker, config.shutdownTimeoutMs);
      await queue.close();
      tracking.disconnect();
      if (!options.storage) await storage.close();
    },
  };
}

/** Longest wait, in ms, for stopped jobs to hand themselves back before the worker closes anyway. */
const HAND_BACK_MS = 10_000;

/**
 * Closes `worker`, letting jobs in flight finish for up to `timeoutMs`; past that their ingests are
 * aborted, and each hands its job back to the queue (see the worker's handler). A job that does not
 * stop within HAND_BACK_MS is left to BullMQ's stalled-job check, which takes it up again once its
 * lock expires.
 */
async function drain(worker: Worker, timeoutMs: number): Promise<void> {
  const closed = worker.close();
  if (await settlesWithin(closed, timeoutMs)) return;
  worker.cancelAllJobs('Sift is stopping');
  await settlesWithin(closed, HAND_BACK_MS);
}
