/** The ingest worker's configuration, parsed once from the environment (see `@sift/shared/env`). */
import type { LogLevel } from '@sift/shared/logger';
import path from 'node:path';
import { parseEnv, serviceEnvSchema, type ServiceEnv } from '@sift/shared/env';
import type { ClusterOptions } from '@sift/clickhouse';
import type { S3Options } from '@sift/object-store';
import { READ_ISOLATION, type ReadIsolation } from '@sift/spreadsheet';
import type { CsvLoader } from './pipeline/types.ts';

/** What an ingest worker needs to run, wherever it runs (all-in-one process or stand-alone). */
export interface WorkerConfig {
  /** Absolute; originals are read from `blobs/` under it, scratch files go to `tmp/`. */
  dataDir: string;
  /** ClickHouse server's HTTP endpoint; unset → embedded chDB under `dataDir/clickhouse`. */
  clickhouseUrl: string | undefined;
  clickhouseUser: string;
  clickhousePassword: string;
  clickhouseDatabase: string;
  /** The ClickHouse cluster to lay the tables out on (CLICKHOUSE_CLUSTER…); unset → one node. */
  clickhouseCluster: ClusterOptions | undefined;
  redisUrl: string;
  /** Key prefix of the BullMQ queues and upload tracking in Redis. */
  queuePrefix: string;
  /** Ingest job lock, in ms: a job whose worker died is picked up again after this long. */
  ingestLockMs: number;
  /** Times an ingest job may stall and be taken up again before its file fails (see IngestWorkerOptions.maxStalls). */
  ingestMaxStalls: number;
  /** Pieces the embedded engine loads a CSV body in, in bytes (progress granularity). */
  csvChunkBytes: number;
  /** Who parses CSV (see IngestDeps.csvLoader); `engine` unless a test needs another path. */
  csvLoader: CsvLoader;
  /** What reading one file in JavaScript may cost (PARSE_MAX_HEAP_MB, PARSE_IDLE_TIMEOUT_MS). */
  readIsolation: ReadIsolation;
  /** GENERAL rows whose author pairs make one join insert (IngestDeps.authorJoinRunRows); unset → the default. */
  authorJoinRunRows?: number | undefined;
  /** How long a stop waits for jobs in flight before handing them back to the queue, in ms. */
  shutdownTimeoutMs: number;
  /** Files the worker reads at once (WORKER_CONCURRENCY). */
  workerConcurrency: number;
  /** Least level of the process's JSON logs (LOG_LEVEL). */
  logLevel: LogLevel;
  /** Port the process serves its Prometheus metrics on (METRICS_PORT; 0: any free one); unset → none. */
  metricsPort: number | undefined;
  /** The S3-compatible store for originals and exports (S3_*); unset → local disk under `dataDir`. */
  s3: S3Options | undefined;
}

/** Defaults of the settings that are not read from the environment. */
export const WORKER_DEFAULTS = {
  ingestMaxStalls: 1,
  csvChunkBytes: 32 * 1024 * 1024,
  csvLoader: 'engine',
} as const satisfies Partial<WorkerConfig>;

/** Parses `env` (default `process.env`); throws an Error naming every bad variable. */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  return workerConfigOf(parseEnv(serviceEnvSchema, env));
}

/** The worker's settings from variables already parsed (the all-in-one process parses them with its own). */
export function workerConfigOf(e: ServiceEnv): WorkerConfig {
  return {
    ...WORKER_DEFAULTS,
    dataDir: path.resolve(e.DATA_DIR),
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseUser: e.CLICKHOUSE_USER,
    clickhousePassword: e.CLICKHOUSE_PASSWORD,
    clickhouseDatabase: e.CLICKHOUSE_DATABASE,
    clickhouseCluster: e.CLICKHOUSE_CLUSTER
      ? {
          name: e.CLICKHOUSE_CLUSTER,
          replicated: e.CLICKHOUSE_REPLICATED === 'true',
          nodeUrls: e.CLICKHOUSE_NODE_URLS,
        }
      : undefined,
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX,
    ingestLockMs: e.INGEST_LOCK_MS,
    readIsolation: {
      maxHeapMb: e.PARSE_MAX_HEAP_MB ?? READ_ISOLATION.maxHeapMb,
      idleTimeoutMs: e.PARSE_IDLE_TIMEOUT_MS ?? READ_ISOLATION.idleTimeoutMs,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    metricsPort: e.METRICS_PORT,
    logLevel: e.LOG_LEVEL,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          prefix: e.S3_PREFIX,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
  };
}
