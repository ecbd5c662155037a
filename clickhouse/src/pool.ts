import type { Readable } from 'node:stream';
import type {
  Connection,
  ConnBaseQueryParams,
  ConnCommandResult,
  ConnExecParams,
  ConnExecResult,
  ConnInsertParams,
  ConnInsertResult,
  ConnPingParams,
  ConnPingResult,
  ConnQueryResult,
} from 'chdb/connection';
import { inlineQueryParams } from './inline-params.ts';

/**
 * Connections to the embedded engine opened by default. One chDB connection runs one query at a
 * time (measured: two CPU-bound queries on one connection take twice as long as one; on two
 * connections, as long as one), so with a single connection an ingest's INSERT or a long export
 * would hold up every other query of the process, sign-in included. Four lets an ingest, an export
 * and a search run while a fourth call (an account lookup, a progress poll) still gets through.
 */
export const EMBEDDED_CONNECTIONS = 4;

/**
 * Several connections to one engine behind the single `Connection` that `@clickhouse/client` takes.
 * Each call goes to the connection with the fewest calls in flight (the first of them on a tie), and
 * counts as in flight until its promise settles: chDB materialises a result before the promise
 * resolves, so the connection is free again by then. The connections must not depend on session
 * state (temporary tables, `SET`): consecutive calls may land on different connections.
 *
 * Query parameters are written into the query text (inlineQueryParams): chDB runs bound queries one
 * at a time across all connections, which would undo the pool for every query Sift sends.
 */
export class PooledConnection implements Connection<Readable> {
  readonly #members: { connection: Connection<Readable>; inFlight: number }[];
  readonly #release: (() => void) | undefined;

  /**
   * `connections`: at least one, all to the same engine and data directory; `release`: called once
   * they are all closed (e.g. to close the engine's own session).
   */
  constructor(connections: Connection<Readable>[], release?: () => void) {
    if (connections.length === 0) throw new Error('PooledConnection needs at least one connection');
    this.#members = connections.map((connection) => ({ connection, inFlight: 0 }));
    this.#release = release;
  }

  /** Calls in flight on each connection, in order (for tests and diagnostics). */
  get inFlight(): number[] {
    return this.#members.map((m) => m.inFlight);
  }

  async #run<T>(call: (c: Connection<Readable>) => Promise<T>): Promise<T> {
    let member = this.#members[0]!;
    for (const m of this.#members) if (m.inFlight < member.inFlight) member = m;
    member.inFlight++;
    try {
      return await call(member.connection);
    } finally {
      member.inFlight--;
    }
  }

  ping(params: ConnPingParams): Promise<ConnPingResult> {
    return this.#run((c) => c.ping(params));
  }

  query(params: ConnBaseQueryParams): Promise<ConnQueryResult<Readable>> {
    return this.#run((c) => c.query(inlined(params)));
  }

  insert(params: ConnInsertParams<Readable>): Promise<ConnInsertResult> {
    return this.#run((c) => c.insert(params));
  }

  command(params: ConnBaseQueryParams): Promise<ConnCommandResult> {
    return this.#run((c) => c.command(inlined(params)));
  }

  exec(params: ConnExecParams<Readable>): Promise<ConnExecResult<Readable>> {
    return this.#run((c) => c.exec(inlined(params)));
  }

  async close(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.connection.close()));
    this.#release?.();
  }
}

/** The call with its query parameters written into the query, when they all can be. */
function inlined<P extends ConnBaseQueryParams>(params: P): P {
  if (!params.query_params || Object.keys(params.query_params).length === 0) return params;
  const query = inlineQueryParams(params.query, params.query_params);
  return query === null ? params : { ...params, query, query_params: undefined };
}
