// First: the allocator options must be in the environment before chDB's library loads.
import './engine-memory.ts';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { EMBEDDED_CONNECTIONS, PooledConnection } from './pool.ts';

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
  /** Embedded only: connections the engine's queries are spread over (EMBEDDED_CONNECTIONS). */
  connections?: number;
}

/**
 * Opens a `@clickhouse/client` client against a ClickHouse server, or against embedded chDB through
 * `chdb/connection` so the same client API serves both. chDB allows one data directory per process
 * (see docs/architecture.md): callers in one process must pass the same `dataDir`. Embedded, the
 * client spreads its calls over several connections (PooledConnection), since one chDB connection
 * runs one query at a time; against a server, each call is its own HTTP request already.
 */
export function openClickHouse(options: ClickHouseOptions): ClickHouseClient {
  const settings = {
    // Dates are written as ISO strings; 64-bit counts come back as JSON numbers.
    date_time_input_format: 'best_effort' as const,
    output_format_json_quote_64bit_integers: 0 as const,
  };
  if (options.url) {
    return createClient({
      url: options.url,
      username: options.user,
      password: options.password,
      clickhouse_settings: settings,
      request_timeout: 300_000,
    });
  }
  const dir = path.resolve(options.dataDir, 'clickhouse');
  mkdirSync(dir, { recursive: true });
  // The chDB connection implements @clickhouse/client-common's Connection; the client's option type
  // does not declare the `connection` escape hatch, hence the widening.
  const connectionOptions = {
    connection: new PooledConnection(
      Array.from({ length: Math.max(1, options.connections ?? EMBEDDED_CONNECTIONS) }, () =>
        createChdbConnection({ path: dir }),
      ),
    ),
    clickhouse_settings: settings,
  };
  return createClient(connectionOptions as Parameters<typeof createClient>[0]);
}
