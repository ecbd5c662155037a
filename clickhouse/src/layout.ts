/**
 * Where Sift's tables live: one node (embedded chDB or one ClickHouse server), or a ClickHouse
 * cluster (`CLICKHOUSE_CLUSTER`). On a cluster the metadata tables are whole on every node
 * (replicated), the searchable rows are sharded by file (`rows_local` on every shard, read and
 * written through the Distributed table `rows`), and schema changes go to every node.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { inlineQueryParams } from './inline-params.ts';
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
  /** `db.record_copies`, quoted: the rows that copy a record of another (Distributed on a cluster). */
  readonly copies: string;
  /** The table that stores them: `db.record_copies` or `db.record_copies_local`, quoted. */
  readonly copiesLocal: string;

  /**
   * `client` reaches the node Sift reads and writes through; `nodes` (one client for each of
   * `cluster.nodeUrls`, closed by the caller) the nodes a statement is sent to one by one.
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
  }

  /** How {@link everyNode} carries statements out. */
  get ddlPath(): DdlPath {
    if (!this.cluster) return 'single-node';
    return this.nodes.length ? 'each-node' : 'on-cluster';
  }

  /**
   * Runs `query` (written with {@link onCluster}) so that it takes effect on every node: once on a
   * single node or with ON CLUSTER, else on each node in turn. Rejects with the first node's error.
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
    await this.eachNode((node) =>
      node.command({
        query,
        query_params: params,
        clickhouse_settings: options.clickhouse_settings as never,
      }),
    );
    return this.ddlPath;
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

  /** `system.<name>` of this node, or of every node of the cluster (as `clusterAllReplicas`). */
  system(name: string): string {
    return this.cluster
      ? `clusterAllReplicas(${ident(this.cluster.name)}, system.${name})`
      : `system.${name}`;
  }
}

/** `MergeTree` → `ReplicatedMergeTree(args)`, `ReplacingMergeTree(a, b)` → `ReplicatedReplacingMergeTree(args, a, b)`. */
function replicated(plain: string, args: string): string {
  const m = /^(\w*MergeTree)(?:\((.*)\))?$/s.exec(plain.trim());
  if (!m) throw new Error(`Not a MergeTree engine: ${plain}`);
  const rest = m[2]?.trim();
  return `Replicated${m[1]}(${args}${rest ? `, ${rest}` : ''})`;
}
