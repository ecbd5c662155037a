/**
 * Statements a node of the cluster missed while it could not be reached, kept until it answers
 * again and then run on it in order (issue 36; docs/operations.md, "A node down"). Only the
 * each-node path (CLICKHOUSE_NODE_URLS, TableLayout.everyNode) needs this: ON CLUSTER statements
 * wait in Keeper's queue for a node that is away.
 *
 * The log is the table `node_catch_up` on the node Sift reads and writes through (CLICKHOUSE_URL:
 * on an unreplicated cluster the metadata's home, which every process reaches), so every process
 * sees what any process recorded, and any of them replays it. The statements are Sift's schema
 * changes (`… IF NOT EXISTS`) and deletes, so a statement run twice (two processes replaying at
 * once) leaves what running it once leaves.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { ident } from './sql.ts';

/** How often each process looks for nodes to catch up, ms (NodeCatchUp.start). */
export const NODE_CATCH_UP_INTERVAL_MS = 5_000;

/** Errors of a node that could not be reached (rather than one that refused the statement). */
const UNREACHABLE_SYSCALLS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/**
 * ClickHouse's codes for a node it could not reach on the way (SOCKET_TIMEOUT 209, NETWORK_ERROR
 * 210, ALL_CONNECTION_TRIES_FAILED 279): a Distributed table's shard that is down.
 */
const UNREACHABLE_CODES = new Set(['209', '210', '279']);

/**
 * Whether `error` says a ClickHouse node could not be reached: the HTTP connection to it failed or
 * timed out, or the node Sift talks to could not reach another (a shard of a Distributed table).
 */
export function nodeUnreachable(error: unknown): boolean {
  if (error instanceof NodeUnreachableError) return true;
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined; e;) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNREACHABLE_SYSCALLS.has(code) || UNREACHABLE_CODES.has(code)) return true;
    if (typeof e.message === 'string' && /^Timeout error\b|socket hang up/i.test(e.message)) return true;
    e = e.cause as typeof e | undefined;
  }
  return false;
}

/** A statement for every node that every node answering took, and that could not reach some. */
export class NodeUnreachableError extends Error {
  constructor(
    readonly nodes: string[],
    options?: ErrorOptions,
  ) {
    super(`No ClickHouse node of the cluster could be reached (${nodes.join(', ')}).`, options);
  }
}

/** A statement kept for a node, as TableLayout.everyNode was given it. */
interface Missed {
  seq: string;
  statement: string;
  params: Record<string, unknown> | undefined;
  settings: Record<string, unknown> | undefined;
}

/** One node of the cluster addressed on its own: its URL (its name in the log) and client. */
export interface ClusterNode {
  url: string;
  client: ClickHouseClient;
}

/** The log of statements nodes missed, and their replay (see the module's comment). */
export class NodeCatchUp {
  readonly #log: string;
  /** Whether the log table is known to exist (made by the first record(), or seen by behind()). */
  #logMade = false;
  #lastSeq = 0;
  #timer: NodeJS.Timeout | undefined;
  /** A replay of each node running in this process (by URL): one at a time. */
  readonly #replaying = new Map<string, Promise<boolean>>();

  /**
   * @param client - the node Sift reads and writes through, which keeps the log
   * @param database - the database's name
   * @param nodes - every node, as TableLayout addresses them
   * @param onError - told of what a background replay could not do (never rejects)
   */
  constructor(
    private readonly client: ClickHouseClient,
    private readonly database: string,
    private readonly nodes: ClusterNode[],
    private readonly onError: (message: string, error: unknown) => void = (m, e) =>
      console.error(`[sift] ${m}`, e),
  ) {
    this.#log = `${ident(database)}.node_catch_up`;
  }

  /**
   * Keeps `statement` for node `index` (its parameters and settings with it), to be run there once
   * it answers. Rejects when the log cannot be written (then nothing is kept: the caller fails).
   */
  async record(
    index: number,
    statement: string,
    params?: Record<string, unknown>,
    settings?: Record<string, unknown>,
  ): Promise<void> {
    if (!this.#logMade) {
      await this.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(this.database)}` });
      await this.client.command({
        query: `CREATE TABLE IF NOT EXISTS ${this.#log}
                (node String, seq UInt64, statement String, params String, settings String)
                ENGINE = MergeTree ORDER BY (node, seq)`,
      });
      this.#logMade = true;
    }
    // Increasing within a process, and across processes by the clock (µs).
    const seq = Math.max(Date.now() * 1000, this.#lastSeq + 1);
    this.#lastSeq = seq;
    await this.client.insert({
      table: this.#log,
      values: [
        {
          node: this.nodes[index]!.url,
          seq,
          statement,
          params: JSON.stringify(params ?? {}),
          settings: JSON.stringify(settings ?? {}),
        },
      ],
      format: 'JSONEachRow',
    });
  }

  /** The indexes of the nodes with statements waiting for them (none when the log was never made). */
  async behind(): Promise<Set<number>> {
    if (!this.#logMade) {
      const made = await this.client.query({
        query: `SELECT count() FROM system.tables WHERE database = {db:String} AND name = 'node_catch_up'`,
        query_params: { db: this.database },
        format: 'JSONCompactEachRow',
      });
      // No log yet: no node ever missed a statement.
      if (!Number((await made.json<[string]>())[0]?.[0])) return new Set();
      this.#logMade = true;
    }
    const rs = await this.client.query({
      query: `SELECT DISTINCT node FROM ${this.#log}`,
      format: 'JSONCompactEachRow',
    });
    const urls = new Set((await rs.json<[string]>()).map(([url]) => url));
    return new Set(this.nodes.flatMap((n, i) => (urls.has(n.url) ? [i] : [])));
  }

  /**
   * Runs on node `index` what it missed, in order, removing each statement from the log once it
   * ran. A statement the node refuses (not one it cannot be reached for) could never run: it is
   * reported and dropped. Resolves true once the node has nothing waiting, false when it still
   * cannot be reached.
   */
  replay(index: number): Promise<boolean> {
    const { url } = this.nodes[index]!;
    const running = this.#replaying.get(url);
    if (running) return running;
    const replay = this.#replay(index).finally(() => this.#replaying.delete(url));
    this.#replaying.set(url, replay);
    return replay;
  }

  async #replay(index: number): Promise<boolean> {
    const node = this.nodes[index]!;
    const rs = await this.client.query({
      query: `SELECT toString(seq) AS seq, statement, params, settings FROM ${this.#log}
              WHERE node = {node:String} ORDER BY seq`,
      query_params: { node: node.url },
      format: 'JSONEachRow',
    });
    const missed = (
      await rs.json<{ seq: string; statement: string; params: string; settings: string }>()
    ).map((m): Missed => ({
      seq: m.seq,
      statement: m.statement,
      params: JSON.parse(m.params) as Record<string, unknown>,
      settings: JSON.parse(m.settings) as Record<string, unknown>,
    }));
    const key = (m: Missed) => ({ node: node.url, seq: m.seq });
    for (const m of missed) {
      // Another process may have replayed it meanwhile: a delete run again after the ingest that
      // followed it loaded the file anew would take that file's rows.
      const still = await this.client.query({
        query: `SELECT count() FROM ${this.#log} WHERE node = {node:String} AND seq = {seq:UInt64}`,
        query_params: key(m),
        format: 'JSONCompactEachRow',
      });
      if (!Number((await still.json<[string]>())[0]?.[0])) continue;
      try {
        await node.client.command({
          query: m.statement,
          query_params: m.params,
          clickhouse_settings: m.settings as never,
        });
      } catch (e) {
        if (nodeUnreachable(e)) return false;
        this.onError(`ClickHouse node ${node.url} refused a statement it missed while away; dropped`, e);
      }
      await this.client.command({
        query: `DELETE FROM ${this.#log} WHERE node = {node:String} AND seq = {seq:UInt64}`,
        query_params: key(m),
      });
    }
    return true;
  }

  /** Replays, every `intervalMs`, what every node that answers again missed; until stop(). */
  start(intervalMs = NODE_CATCH_UP_INTERVAL_MS): void {
    const tick = async () => {
      try {
        for (const i of await this.behind()) await this.replay(i);
      } catch (e) {
        if (!nodeUnreachable(e)) this.onError('Could not catch up the ClickHouse nodes that were away', e);
      }
      if (this.#timer) this.#timer = setTimeout(() => void tick(), intervalMs).unref();
    };
    this.#timer = setTimeout(() => void tick(), intervalMs).unref();
  }

  /** Ends the replays start() began (one running finishes on its own). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
