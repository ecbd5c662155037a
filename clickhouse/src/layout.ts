/**
 * Where Sift's tables live: one node (embedded chDB or one ClickHouse server), or a ClickHouse
 * cluster (`CLICKHOUSE_CLUSTER`). On a cluster the metadata tables are whole on every node
 * (replicated), the searchable rows are sharded by file (`rows_local` on every shard, read and
 * written through the Distributed table `rows`), and schema changes go to every node.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { inlineQueryParams } from './inline-params.ts';
import { NodeCatchUp, nodeUnreachable, NodeUnreachableError } from './node-catch-up.ts';
import { ident } from './sql.ts';

/** A ClickHouse cluster to lay Sift's tables out on. */
export interface ClusterOptions {
  /** `CLICKHOUSE_CLUSTER`: the cluster's name in the servers' `remote_servers`. */
  name: string;
  /**
   * `CLICKHOUSE_REPLICATED` (default true): Replicated engines, whose replicas keep each other up
   * to date through ClickHouse Keeper (the servers need `zookeeper` and the `shard`/`replica`
   * macros). False for shards of one node each and no Keeper.
   */
  replicated: boolean;
  /**
   * `CLICKHOUSE_NODE_URLS`: the HTTP endpoint of every node of the cluster. Set, schema changes and
   * deletes are sent to each node in turn; unset, once with `ON CLUSTER` (which needs Keeper and the
   * servers' distributed DDL queue).
   */
  nodeUrls: string[];
}

/** How a statement meant for every node was carried out. */
export type DdlPath = 'single-node' | 'on-cluster' | 'each-node';

/** Options of one statement sent to every node. */
export interface DdlOptions {
  query_params?: Record<string, unknown>;
  clickhouse_settings?: Record<string, unknown>;
  /**
   * What a node that cannot be reached is left (nodes addressed one by one): `catch-up` (default:
   * the statement is kept and run there when it answers again, NodeCatchUp), or `skip` (nothing to
   * do there later, e.g. stopping queries that died with the node).
   */
  unreachable?: 'catch-up' | 'skip';
}

/**
 * The table layout of one database and the way to change it on every node. Statements that change
 * a table's schema or delete from it are written with {@link onCluster} after the table's name and
 * run with {@link everyNode}.
 */
export class TableLayout {
  /** The database's name, quoted for SQL (in backticks). */
  readonly db: string;
  /** The table searches, counts and inserts use: `db.rows`, quoted (Distributed on a cluster). */
  readonly rows: string;
  /** The table that stores the rows (the one skip indexes and deletes apply to): `rows` or `rows_local`. */
  readonly rowsLocalName: 'rows' | 'rows_local';
  /** `db.rows` or `db.rows_local`, quoted. */
  readonly rowsLocal: string;
  /** ` ON CLUSTER <name>` (the name quoted) when statements go once to the whole cluster; else ''. */
  readonly onCluster: string;
  /**
   * On a cluster whose nodes are addressed one by one: what a node missed while away, replayed
   * when it answers (null otherwise: a single node, or ON CLUSTER, whose queue waits in Keeper).
   */
  readonly catchUp: NodeCatchUp | null;
  /** `db.record_copies`, quoted: the rows that copy a record of another (Distributed on a cluster). */
  readonly copies: string;
  /** The table that stores them: `db.record_copies` or `db.record_copies_local`, quoted. */
  readonly copiesLocal: string;

  /**
   * `client` reaches the node Sift reads and writes through; `nodes` (one client for each of
   * `cluster.nodeUrls`, in that order, closed by the caller) the nodes a statement is sent to one
   * by one.
   */
  constructor(
    private readonly client: ClickHouseClient,
    readonly database: string,
    readonly cluster: ClusterOptions | undefined = undefined,
    private readonly nodes: ClickHouseClient[] = [],
  ) {
    this.db = ident(database);
    this.rows = `${this.db}.rows`;
    this.rowsLocalName = this.localName('rows') as 'rows' | 'rows_local';
    this.rowsLocal = `${this.db}.${this.rowsLocalName}`;
    this.copies = `${this.db}.record_copies`;
    this.copiesLocal = `${this.db}.${this.localName('record_copies')}`;
    this.onCluster = cluster && !nodes.length ? ` ON CLUSTER ${ident(cluster.name)}` : '';
    this.catchUp =
      cluster && nodes.length
        ? new NodeCatchUp(
            client,
            database,
            nodes.map((node, i) => ({ url: cluster.nodeUrls[i] ?? `node ${i}`, client: node })),
          )
        : null;
  }

  /** How {@link everyNode} carries statements out. */
  get ddlPath(): DdlPath {
    if (!this.cluster) return 'single-node';
    return this.nodes.length ? 'each-node' : 'on-cluster';
  }

  /**
   * Runs `query` (written with {@link onCluster}) so that it takes effect on every node: once on a
   * single node or with ON CLUSTER, else on each node in turn. Addressed one by one, a node that
   * cannot be reached does not stop it: the statement waits for that node in {@link catchUp}
   * (as does every later one, in order, until the node has run what it missed), unless
   * `options.unreachable` is `skip`. Rejects with the first error of a node that answered, or
   * NodeUnreachableError when no node could be reached.
   */
  async everyNode(query: string, options: DdlOptions = {}): Promise<DdlPath> {
    let params = options.query_params;
    if (params && this.onCluster) {
      // The statement is queued for every node as text: its parameters go in as literals.
      const inlined = inlineQueryParams(query, params);
      if (inlined === null)
        throw new Error('A statement sent ON CLUSTER takes String and integer parameters only.');
      query = inlined;
      params = undefined;
    }
    const run = (node: ClickHouseClient) =>
      node.command({
        query,
        query_params: params,
        clickhouse_settings: options.clickhouse_settings as never,
      });
    const { catchUp } = this;
    if (!catchUp) {
      await this.eachNode(run);
      return this.ddlPath;
    }
    const behind = await catchUp.behind();
    const away: { index: number; error: unknown }[] = [];
    await this.eachNode(async (node, index) => {
      // A node back from away first runs what it missed, so statements reach it in order.
      if (!behind.has(index) || (await catchUp.replay(index))) {
        try {
          return await run(node);
        } catch (e) {
          if (!nodeUnreachable(e)) throw e;
          away.push({ index, error: e });
        }
      } else away.push({ index, error: null });
      if (options.unreachable !== 'skip')
        await catchUp.record(index, query, params, options.clickhouse_settings);
    });
    if (away.length === this.nodes.length) {
      const urls = away.map(({ index }) => this.cluster!.nodeUrls[index] ?? `node ${index}`);
      throw new NodeUnreachableError(urls, { cause: away.find((a) => a.error)?.error });
    }
    return this.ddlPath;
  }

  /** The last look at the shards that answer (see shardsAway), and when it was taken (ms). */
  #shardsLook: { at: number; away: Promise<number> } | null = null;

  /**
   * How many shards of the cluster cannot be reached now (0 on one node): those a search leaves
   * out (REACHABLE_NODES_READ). Looked at once every SHARDS_LOOK_MS at most, by asking every
   * replica of every shard which shard it is; a shard counts as away once none of its replicas
   * answers. Rejects when the node Sift talks to does not answer.
   */
  shardsAway(): Promise<number> {
    if (!this.cluster) return Promise.resolve(0);
    const now = Date.now();
    if (this.#shardsLook && now - this.#shardsLook.at < SHARDS_LOOK_MS) return this.#shardsLook.away;
    const away = (async () => {
      const rs = await this.client.query({
        query: `SELECT (SELECT uniqExact(shard_num) FROM system.clusters WHERE cluster = {cluster:String})
                  - (SELECT uniqExact(shardNum()) FROM clusterAllReplicas(${ident(this.cluster!.name)}, system.one))`,
        query_params: { cluster: this.cluster!.name },
        format: 'JSONCompactEachRow',
        clickhouse_settings: REACHABLE_NODES_READ,
      });
      return Math.max(0, Number((await rs.json<[string]>())[0]?.[0] ?? 0));
    })();
    this.#shardsLook = { at: now, away };
    // A failed look is not kept: the next caller looks again.
    away.catch(() => {
      if (this.#shardsLook?.away === away) this.#shardsLook = null;
    });
    return away;
  }

  /**
   * Deletes the rows of these files from `localTable` (the table storing what the Distributed
   * `table` reads; the same table on one node) on every node, when `table` holds any of them. A
   * shard that cannot be reached to look may hold them: the delete then waits for it (everyNode).
   * The delete is done once the node Sift talks to has it (`lightweight_deletes_sync = 1`): the
   * other replicas follow through replication, and none being down stops it.
   *
   * @param table - the table to look in, quoted (e.g. {@link rows})
   * @param localTable - the table to delete from, quoted (e.g. {@link rowsLocal})
   * @param fileIds - `file_id` values (row ids)
   */
  async deleteFiles(table: string, localTable: string, fileIds: string[]): Promise<void> {
    let stored = fileIds;
    try {
      const rs = await this.client.query({
        query: `SELECT DISTINCT file_id FROM ${table} WHERE file_id IN {ids:Array(String)}`,
        query_params: { ids: fileIds },
        format: 'JSONCompactEachRow',
      });
      stored = (await rs.json<[string]>()).map(([id]) => id);
    } catch (e) {
      if (!nodeUnreachable(e)) throw e;
    }
    if (!stored.length) return;
    await this.everyNode(`DELETE FROM ${localTable}${this.onCluster} WHERE file_id IN {ids:Array(String)}`, {
      query_params: { ids: stored },
      clickhouse_settings: { lightweight_deletes_sync: '1' },
    });
  }

  /**
   * Runs `work` with each node's client in turn (index 0, 1, …) when nodes are addressed one by
   * one, else once with the client Sift reads and writes through (index 0). Resolves with the
   * answers in that order; rejects with the first error.
   */
  async eachNode<T>(work: (node: ClickHouseClient, index: number) => Promise<T>): Promise<T[]> {
    const targets = this.nodes.length ? this.nodes : [this.client];
    const answers: T[] = [];
    for (const [i, node] of targets.entries()) answers.push(await work(node, i));
    return answers;
  }

  /**
   * Engine clause of a table that is whole on every node: `plain` (e.g.
   * `ReplacingMergeTree(version, is_deleted)`) on one node or unreplicated shards; its Replicated form on a replicated cluster,
   * one replica on every node of every shard (Keeper path by database and table).
   */
  everywhereEngine(plain: string): string {
    if (!this.cluster?.replicated) return plain;
    return replicated(plain, `'/clickhouse/tables/sift/{database}/{table}', '{shard}-{replica}'`);
  }

  /** Engine clause of the table that stores rows: `plain` on one node, per shard on a cluster. */
  shardEngine(plain: string): string {
    if (!this.cluster?.replicated) return plain;
    return replicated(plain, `'/clickhouse/tables/{shard}/{database}/{table}', '{replica}'`);
  }

  /** The table that stores a sharded table's rows: `name` on one node, `name_local` on a cluster. */
  localName(name: string): string {
    return this.cluster ? `${name}_local` : name;
  }

  /**
   * The Distributed engine of `name` over every shard's `name_local`: one value of `shardKey` (a
   * column: `file_id`, one file on one shard; `account_id`, one account's people) on one shard.
   */
  distributedEngine(name = 'rows', shardKey = 'file_id'): string {
    if (!this.cluster) throw new Error('Only a cluster layout has a Distributed table.');
    if (!/^\w+$/.test(shardKey)) throw new Error(`Not a column name: ${shardKey}`);
    return `Distributed(${ident(this.cluster.name)}, ${this.db}, ${name}_local, cityHash64(${shardKey}))`;
  }

  /**
   * `system.<name>` of this node, or of every node of the cluster (as `clusterAllReplicas`); read
   * it with REACHABLE_NODES_READ, so that a node that cannot be reached is left out.
   */
  system(name: string): string {
    return this.cluster
      ? `clusterAllReplicas(${ident(this.cluster.name)}, system.${name})`
      : `system.${name}`;
  }
}

/**
 * Settings of a read that answers from the nodes that can be reached, leaving out those that
 * cannot (a shard down): reads of {@link TableLayout.system} (an ingest's look at the columns, the
 * admin's statistics) and searches, which go on over the files of the shards that are up.
 */
export const REACHABLE_NODES_READ = { skip_unavailable_shards: 1 } as const;

/** How long a look at the shards that answer is kept (TableLayout.shardsAway), ms. */
export const SHARDS_LOOK_MS = 5_000;

/** `MergeTree` → `ReplicatedMergeTree(args)`, `ReplacingMergeTree(a, b)` → `ReplicatedReplacingMergeTree(args, a, b)`. */
function replicated(plain: string, args: string): string {
  const m = /^(\w*MergeTree)(?:\((.*)\))?$/s.exec(plain.trim());
  if (!m) throw new Error(`Not a MergeTree engine: ${plain}`);
  const rest = m[2]?.trim();
  return `Replicated${m[1]}(${args}${rest ? `, ${rest}` : ''})`;
}
