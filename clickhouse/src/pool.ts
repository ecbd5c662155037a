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
import { settlesWithin } from '@sift/shared/settle';
import { inlineQueryParams } from './inline-params.ts';
import { stringLiteral } from './sql.ts';

/**
 * Connections to the embedded engine opened by default. One chDB connection runs one query at a
 * time (two CPU-bound queries on one connection take twice as long as one; on two
 * connections, as long as one), so with a single connection an ingest's INSERT or a long export
 * would hold up every other query of the process, sign-in included. Four lets an ingest, an export
 * and a search run while a fourth call (an account lookup, a progress poll) still gets through.
 */
export const EMBEDDED_CONNECTIONS = 4;

/** Longest wait, in ms, for calls in flight when the pool closes. */
const CLOSE_WAIT_MS = 10_000;

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
  readonly #members: Member[];
  readonly #release: (() => void) | undefined;

  /**
   * `connections`: at least one, all to the same engine and data directory; `release`: called once
   * they are all closed (e.g. to close the engine's own session).
   */
  constructor(connections: Connection<Readable>[], release?: () => void) {
    if (connections.length === 0) throw new Error('PooledConnection needs at least one connection');
    this.#members = connections.map((connection) => ({
      connection,
      inFlight: 0,
      turn: Promise.resolve(),
      applied: new Map<string, string>(),
    }));
    this.#release = release;
  }

  /** Calls in flight on each connection, in order (for tests and diagnostics). */
  get inFlight(): number[] {
    return this.#members.map((m) => m.inFlight);
  }

  /**
   * Runs `call` on the connection with the fewest calls in flight, after the calls already queued
   * there (chDB runs them one at a time anyway), with `params` carrying its settings as `SET`
   * statements in front of the query (those the connection holds already at the same value left
   * out), and resets to their defaults the settings an earlier call on that connection set and
   * this one does not (see settingsFor).
   */
  async #run<P extends ConnBaseQueryParams, T>(
    params: P | null,
    call: (c: Connection<Readable>, params: P) => Promise<T>,
  ): Promise<T> {
    let member = this.#members[0]!;
    for (const m of this.#members) if (m.inFlight < member.inFlight) member = m;
    member.inFlight++;
    const chosen = member;
    const turn = chosen.turn.then(() => {
      if (!params) return call(chosen.connection, params as unknown as P); // a ping: no query
      const { params: sent, applied } = settingsFor(params, chosen.applied);
      // Until the call succeeds, what it reset may still be set, and what it sets may be (at a
      // value no later call can take for granted).
      for (const k of applied.keys()) chosen.applied.set(k, UNKNOWN_VALUE);
      return call(chosen.connection, sent).then((result) => {
        chosen.applied = applied;
        return result;
      });
    });
    chosen.turn = turn.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await turn;
    } finally {
      chosen.inFlight--;
    }
  }

  ping(params: ConnPingParams): Promise<ConnPingResult> {
    return this.#run(null, (c) => c.ping(params));
  }

  query(params: ConnBaseQueryParams): Promise<ConnQueryResult<Readable>> {
    return this.#run(inlined(params), (c, p) => c.query(p));
  }

  insert(params: ConnInsertParams<Readable>): Promise<ConnInsertResult> {
    return this.#run(params, (c, p) => c.insert(p));
  }

  command(params: ConnBaseQueryParams): Promise<ConnCommandResult> {
    return this.#run(inlined(params), (c, p) => c.command(p));
  }

  exec(params: ConnExecParams<Readable>): Promise<ConnExecResult<Readable>> {
    return this.#run(inlined(params), (c, p) => c.exec(p));
  }

  /**
   * Closes every connection once the calls already given to it have answered (at most
   * CLOSE_WAIT_MS): closing chDB's session under a running query can end the process by a signal,
   * and a process stopping past its deadline still has its last statements running.
   */
  async close(): Promise<void> {
    await settlesWithin(Promise.all(this.#members.map((m) => m.turn)), CLOSE_WAIT_MS);
    await Promise.all(this.#members.map((m) => m.connection.close()));
    this.#release?.();
  }
}

/**
 * A connection of the pool: its calls in flight, the end of its queue, the settings it has SET
 * (name → the SQL literal of the value).
 */
interface Member {
  connection: Connection<Readable>;
  inFlight: number;
  turn: Promise<void>;
  applied: Map<string, string>;
}

/** What `applied` holds for a setting whose value is not known: equal to no literal. */
const UNKNOWN_VALUE = '\u0000unknown';

/**
 * Settings chDB's connection does not SET on the engine: those of the HTTP layer (dropped) and
 * `default_format` (its output-format option). They pass through to it untouched.
 */
const PASSED_THROUGH =
  /^(http_.*|enable_http_compression|send_progress_in_http_headers|wait_end_of_query|default_format)$/;

/**
 * A call's settings as `SET` statements in front of its query, preceded by `SET name = DEFAULT` for
 * each setting in `applied` (set by an earlier call on the connection) that this call does not set;
 * a setting the connection holds already at the same value is not sent again (the client's own
 * settings, on every call, are SET once per connection). chDB's connection turns
 * `clickhouse_settings` into `SET` statements too, but SET lasts for the session: without the
 * reset, the next query on that connection ran with the earlier call's settings (after a
 * suggestion query's `max_rows_to_read` with `read_overflow_mode = 'break'`, a count of 1,000 rows
 * answered 10; after an export's `max_threads`, searches took twice as long). Numbers and booleans
 * are written as they are, anything else as a string literal. Returns the parameters to send and
 * the settings the connection holds after the call (name → literal).
 *
 * @param params - the call's parameters, with its `clickhouse_settings`
 * @param applied - settings an earlier call left on the connection, by name
 * @returns the statements to run first and the settings the connection holds after
 */
export function settingsFor<P extends ConnBaseQueryParams>(
  params: P,
  applied: ReadonlyMap<string, string>,
): { params: P; applied: Map<string, string> } {
  const passed: Record<string, unknown> = {};
  const statements: string[] = [];
  const set = new Map<string, string>();
  for (const [name, value] of Object.entries(params.clickhouse_settings ?? {})) {
    if (value === undefined) continue;
    if (PASSED_THROUGH.test(name)) {
      passed[name] = value;
      continue;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`Invalid setting name: ${JSON.stringify(name)}`);
    const literal =
      typeof value === 'number'
        ? String(value)
        : typeof value === 'boolean'
          ? String(Number(value))
          : stringLiteral(String(value));
    if (applied.get(name) !== literal) statements.push(`SET ${name} = ${literal}`);
    set.set(name, literal);
  }
  const resets = [...applied.keys()].filter((name) => !set.has(name)).map((name) => `SET ${name} = DEFAULT`);
  const prefix = [...resets, ...statements];
  const sent = { ...params, clickhouse_settings: passed };
  if (!prefix.length) return { params: sent, applied: set };
  return { params: { ...sent, query: `${prefix.join('; ')}; ${params.query}` }, applied: set };
}

/** The call with its query parameters written into the query, when they all can be. */
function inlined<P extends ConnBaseQueryParams>(params: P): P {
  if (!params.query_params || Object.keys(params.query_params).length === 0) return params;
  const query = inlineQueryParams(params.query, params.query_params);
  return query === null ? params : { ...params, query, query_params: undefined };
}
