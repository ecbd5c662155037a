/**
 * Sift's configuration, parsed once from the environment with zod. The variable names are a
 * contract (docs/architecture.md); a bad value fails start-up with a message naming the variable.
 */
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  CLICKHOUSE_URL: optionalUrl,
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier (letters, digits, _)')
    .default('sift'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  OIDC_ISSUER: optionalUrl,
  OIDC_AUDIENCE: z.string().min(1).default('sift-api'),
  OIDC_CLIENT_ID: z.string().min(1).default('sift-web'),
  OIDC_PERMISSIONS_CLAIM: z.string().min(1).default('permissions'),
  ADMIN_EMAILS: z.string().default('admin@example.com'),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(500 * 1024 * 1024),
  RUN_INGEST_WORKER: z.enum(['true', 'false']).default('true'),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  NODE_ENV: z.string().default('development'),
});

export interface Config {
  port: number;
  /** Origin people reach the app at; unset → `http://localhost:$PORT` (known once listening). */
  publicUrl: string | undefined;
  dataDir: string;
  clickhouseUrl: string | undefined;
  clickhouseUser: string;
  clickhousePassword: string;
  clickhouseDatabase: string;
  redisUrl: string;
  /** External OIDC issuer; unset → the built-in dev identity provider at `$PUBLIC_URL/idp`. */
  oidcIssuer: string | undefined;
  oidcAudience: string;
  oidcClientId: string;
  permissionsClaim: string;
  /** Dev IdP only: these emails (lower case) get `admin:view`. */
  adminEmails: string[];
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number;
  production: boolean;
  /** Key prefix of the BullMQ queues in Redis. */
  queuePrefix: string;
  /**
   * Reverse proxies in front of Sift whose `X-Forwarded-For` is trusted (the client address used for
   * rate limiting is the one that many hops back); 0 trusts none (loopback only).
   */
  trustProxyHops: number;
  /** API requests one client address may make per minute (429 past it). */
  rateLimitPerMinute: number;
  /** Run the ingest worker in this process (the all-in-one mode). */
  runWorker: boolean;
  /** Ingest job lock, in ms: a job whose worker died is picked up again after this long. */
  ingestLockMs: number;
  /** Pieces the embedded engine loads a CSV body in, in bytes (progress granularity). */
  csvChunkBytes: number;
  /** Who parses CSV (see IngestDeps.csvLoader); `engine` unless a test needs another path. */
  csvLoader: 'engine' | 'engine-chunked' | 'javascript';
  /** Directory of the built web app to serve, if any. */
  webDir: string | undefined;
}

/** Parses `env` (default `process.env`); throws an Error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseUser: e.CLICKHOUSE_USER,
    clickhousePassword: e.CLICKHOUSE_PASSWORD,
    clickhouseDatabase: e.CLICKHOUSE_DATABASE,
    redisUrl: e.REDIS_URL,
    oidcIssuer: e.OIDC_ISSUER?.replace(/\/$/, ''),
    oidcAudience: e.OIDC_AUDIENCE,
    oidcClientId: e.OIDC_CLIENT_ID,
    permissionsClaim: e.OIDC_PERMISSIONS_CLAIM,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    production: e.NODE_ENV === 'production',
    queuePrefix: 'sift',
    runWorker: e.RUN_INGEST_WORKER === 'true',
    trustProxyHops: e.TRUST_PROXY_HOPS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    ingestLockMs: 30_000,
    csvChunkBytes: 32 * 1024 * 1024,
    csvLoader: 'engine',
    webDir: undefined,
  };
}
