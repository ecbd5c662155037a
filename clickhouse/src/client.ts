// First: the allocator options must be in the environment before chDB's library loads.
import './engine-memory.ts';
import {
  createClient,
  type ClickHouseClient,
  type ErrorLogParams,
  type Logger as ClientLogger,
  type LogParams,
  type WarnLogParams,
} from '@clickhouse/client';
import type { Logger } from '@sift/shared/logger';
import { engineQueryErrors } from '@sift/shared/metrics';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ClusterOptions } from './layout.ts';
import { EMBEDDED_CONNECTIONS, PooledConnection } from './pool.ts';
import { INGEST_NICE } from './rows/loading.ts';

/** How to reach ClickHouse. With `url` unset, chDB runs embedded with its data under `dataDir/clickhouse`. */
export interface ClickHouseOptions {
  /** ClickHouse HTTP endpoint (`CLICKHOUSE_URL`); unset → embedded chDB. */
  url?: string | undefined;
  user: string;
  password: string;
  /** Database holding every Sift table (`CLICKHOUSE_DATABASE`). Must be a plain identifier. */
  database: string;
  /** `DATA_DIR`; the embedded engine keeps its data in `DATA_DIR/clickhouse`. */
  dataDir: string;
  /** The cluster the server at `url` belongs to (`CLICKHOUSE_CLUSTER`…); unset → one node. */
  cluster?: ClusterOptions | undefined;
  /**
   * Where the client library's own lines go (clientLogger); unset → its default (warnings and
   * errors on the console).
   */
  logger?: Logger | undefined;
}

/**
 * The `@clickhouse/client` library's own log lines through `logger` (pino): a failed request at
 * `debug`, since its caller gets the error and reports what matters (with a shard down, the
 * library's own ERROR line and stack came every 5 s from each process); warnings as warnings; the
 * rest at `trace`.
 */
function clientLogger(logger: Logger): new () => ClientLogger {
  const line = (level: 'trace' | 'debug' | 'warn', p: LogParams & { err?: Error }) =>
    logger[level]({ module: p.module, ...(p.err && { err: p.err }) }, p.message);
  return class implements ClientLogger {
    trace(p: LogParams) {
      line('trace', p);
    }
    debug(p: LogParams) {
      line('trace', p);
    }
    info(p: LogParams) {
      line('trace', p);
    }
    warn(p: WarnLogParams) {
      line('warn', p);
    }
    error(p: ErrorLogParams) {
      line('debug', p);
    }
  };
}

/**
 * Settings every query of a client gets on a cluster: inserts through the Distributed `rows` reach
 * their shard before they return, so a file's rows are counted and searchable when its ingest
 * ends. (No insert quorum: with two replicas a shard, a quorum would stop every ingest while one
 * replica is down; the Distributed table writes to a replica that is up.)
 *
 * @param cluster - the cluster, or undefined on one node
 * @returns the settings (none on one node)
 */
export function clusterSettings(cluster: ClusterOptions | undefined): Record<string, unknown> {
  // A query of given files (or of one account's people) goes only to the shards holding them, so
  // a shard that is down stops only the work on its own files.
  return cluster ? { distributed_foreground_insert: 1, optimize_skip_unused_shards: 1 } : {};
}

/**
 * Opens a `@clickhouse/client` client against a ClickHouse server, or against embedded chDB through
 * `chdb/connection` so the same client API serves both, with `extraSettings` on every query beside
 * Sift's own (and the cluster's). chDB allows one data directory per process (see
 * docs/architecture.md): callers in one process must pass the same `dataDir`. Embedded, the client
 * spreads its calls over several connections (PooledConnection), since one chDB connection runs
 * one query at a time; against a server, each call is its own HTTP request already.
 *
 * @param options - the server URL and credentials, or the embedded engine's data directory
 * @param extraSettings - settings every query of this client gets
 * @returns the client (close it with `close()`)
 */
export function openClickHouse(
  options: ClickHouseOptions,
  extraSettings: Record<string, unknown> = {},
): ClickHouseClient {
  const settings = {
    // Dates are written as ISO strings; 64-bit counts come back as JSON numbers.
    date_time_input_format: 'best_effort' as const,
    output_format_json_quote_64bit_integers: 0 as const,
    ...clusterSettings(options.cluster),
    ...extraSettings,
  };
  if (options.url) {
    return countingErrors(
      createClient({
        url: options.url,
        username: options.user,
        password: options.password,
        clickhouse_settings: settings,
        request_timeout: 300_000,
        ...(options.logger && { log: { LoggerClass: clientLogger(options.logger) } }),
      }),
    );
  }
  // chDB is loaded only here, for the embedded engine: loading it maps its large library into the
  // process (docs/benchmarks.md), which a process working against a ClickHouse server has no use for.
  const require = createRequire(import.meta.url);
  const { Session } = require('chdb') as typeof import('chdb');
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  const dir = path.resolve(options.dataDir, 'clickhouse');
  mkdirSync(dir, { recursive: true });
  // The first session of a data directory starts the engine with its server settings; the pool's
  // connections join it. It stays open until the client closes.
  const engine = new Session(dir, { connectionArgs: ENGINE_SERVER_SETTINGS });
  // The chDB connection implements @clickhouse/client-common's Connection; the client's option type
  // does not declare the `connection` escape hatch, hence the widening.
  const connectionOptions = {
    connection: new PooledConnection(
      Array.from({ length: EMBEDDED_CONNECTIONS }, () => createChdbConnection({ path: dir })),
      () => engine.close(),
    ),
    clickhouse_settings: settings,
    ...(options.logger && { log: { LoggerClass: clientLogger(options.logger) } }),
  };
  return countingErrors(createClient(connectionOptions as Parameters<typeof createClient>[0]));
}

/**
 * `client` with each failed call counted in `sift_engine_query_errors_total` by the engine's error
 * code (`code`, e.g. `'241'` for a memory limit; '' for a network error or a timeout), then
 * rethrown as it was.
 */
function countingErrors(client: ClickHouseClient): ClickHouseClient {
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      call(...args).catch((e: unknown) => {
        engineQueryErrors.inc({ code: String((e as { code?: unknown }).code ?? '') });
        throw e;
      });
  const wrapped: Record<PropertyKey, unknown> = {
    query: counted(client.query.bind(client)),
    command: counted(client.command.bind(client)),
    insert: counted(client.insert.bind(client)),
    exec: counted(client.exec.bind(client)),
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop in wrapped) return wrapped[prop];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The embedded engine's server settings, given when it starts: merges run at the ingest's nice
 * value (INGEST_NICE in rows/loading.ts: a merge after an ingest yields the cores to searches), and
 * upper bounds of its caches, in bytes. ClickHouse sizes the caches for a dedicated server (gigabytes
 * each); inside Sift's process
 * they would grow with every search until they held gigabytes. These keep what a search over ten
 * million rows uses hot.
 */
const ENGINE_SERVER_SETTINGS = Object.entries({
  os_threads_nice_value_merge_mutate: INGEST_NICE,
  mark_cache_size: 256 * 2 ** 20,
  index_mark_cache_size: 64 * 2 ** 20,
  primary_index_cache_size: 64 * 2 ** 20,
  text_index_tokens_cache_size: 64 * 2 ** 20,
  text_index_header_cache_size: 32 * 2 ** 20,
  text_index_postings_cache_size: 128 * 2 ** 20,
  query_condition_cache_size: 32 * 2 ** 20,
}).map(([name, value]) => `--${name}=${value}`);
