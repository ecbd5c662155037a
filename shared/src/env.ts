/**
 * The environment variables every Sift process reads (the all-in-one server, API processes and
 * stand-alone ingest workers), parsed with zod. The names are a contract (docs/configuration.md).
 */
import { z } from 'zod';
import { LOG_LEVELS } from './logger.ts';

/** An optional URL; an empty string counts as unset. */
export const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

/** Storage, queue and ingest settings shared by the API and the ingest worker. */
export const serviceEnvSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  CLICKHOUSE_URL: optionalUrl,
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier (letters, digits, _)')
    .default('sift'),
  /** A ClickHouse cluster (its name in remote_servers) to lay the tables out on; unset → one node. */
  CLICKHOUSE_CLUSTER: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier (letters, digits, _)')
      .optional(),
  ),
  /** On a cluster: Replicated engines (the servers run with Keeper); false for unreplicated shards. */
  CLICKHOUSE_REPLICATED: z.enum(['true', 'false']).default('true'),
  /** On a cluster: every node's HTTP URL, comma-separated; schema changes then go to each, not ON CLUSTER. */
  CLICKHOUSE_NODE_URLS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url())),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Key prefix in Redis: Sift instances sharing one Redis each take their own. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('sift'),
  /** How long an ingest job's lock lasts without renewal, in ms (a dead worker's file is retried after it). */
  INGEST_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Files one ingest worker reads at once (ingest is CPU-bound: about the cores it may use). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Heap one file's reader thread may use, in MB; unset → READ_ISOLATION's. */
  PARSE_MAX_HEAP_MB: z.coerce.number().int().min(16).optional(),
  /** Longest a file's reader may go without producing rows, in ms; unset → READ_ISOLATION's. */
  PARSE_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  /** S3-compatible object storage for originals and exports; unset → local disk under DATA_DIR. */
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_PREFIX: z.string().default(''),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
  /** Least level of the JSON logs on standard error (docs/operations.md, "Logs"). */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Port of the Prometheus metrics (`GET /metrics`, docs/operations.md); unset → not served. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** How long a stopping process waits for work in flight before it hands jobs back, in ms. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
});

export type ServiceEnv = z.output<typeof serviceEnvSchema>;

/**
 * Parses `env` with `schema`; throws one Error naming every bad variable and why
 * (`Invalid configuration: PORT: …; REDIS_URL: …`).
 *
 * @param schema - the variables' zod schema
 * @param env - the environment
 * @returns the parsed configuration
 * @throws Error naming every bad variable
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}
