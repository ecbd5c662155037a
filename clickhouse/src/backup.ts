/**
 * Snapshots of a database on a ClickHouse server or cluster, with the engine's own BACKUP and
 * RESTORE, to a disk the servers allow for backups (their `<backups><allowed_disk>`; a local
 * directory or an object-storage disk). On a cluster the backup is taken ON CLUSTER (one backup of
 * every shard), or node by node (`node-<i>` under the path) when nodes are addressed one by one.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { randomBytes } from 'node:crypto';
import type { KeptRows } from './dump.ts';
import type { TableLayout } from './layout.ts';
import { ident, stringLiteral } from './sql.ts';

/** Where one snapshot's backup lives: a backup disk of the servers and a path on it. */
export interface BackupLocation {
  disk: string;
  path: string;
}

/** The `Disk(…)` destination of node `index`'s backup. */
function destination(layout: TableLayout, at: BackupLocation, index: number): string {
  const sub = layout.ddlPath === 'each-node' ? `${at.path}/node-${index}` : at.path;
  return `Disk(${stringLiteral(at.disk)}, ${stringLiteral(sub)})`;
}

/**
 * Backs the layout's database up to `at` (every node's part of it); rejects with the engine's error.
 *
 * @param layout - the database and where its tables live
 * @param at - the backup's disk and path
 * @throws the engine's error when the backup fails
 */
export async function backupDatabase(layout: TableLayout, at: BackupLocation): Promise<void> {
  await layout.eachNode((node, i) =>
    node.command({
      query: `BACKUP DATABASE ${layout.db}${layout.onCluster} TO ${destination(layout, at, i)}`,
    }),
  );
}

/**
 * The statement creating table `name` of the staging database `staging` as `create` (SHOW CREATE
 * TABLE of the live table) defines it, with ` ON CLUSTER …` (`onCluster`) after its name. A
 * Replicated table gets a Keeper path of its own: ClickHouse stores `{database}` and `{table}`
 * expanded in the path when a table is created, so the live table's path names the live database,
 * and a twin created (or restored with RESTORE … AS) under that path would collide with it
 * (REPLICA_ALREADY_EXISTS; ClickHouse issues 50330, 53524); its database segment becomes the
 * staging database's. Everything else, the Distributed engine's arguments (which must go on naming
 * the live database's tables after the exchange) included, is kept.
 *
 * @param create - the live table's `CREATE TABLE <database>.<name> …`
 * @param database - the live database's name
 * @param staging - the staging database's name
 * @param onCluster - ` ON CLUSTER …` or ''
 * @returns the staging twin's CREATE statement
 * @throws when `create` is not a CREATE TABLE statement of `database`
 */
export function stagedTableDefinition(
  create: string,
  database: string,
  staging: string,
  onCluster: string,
): string {
  const head = /^CREATE TABLE (`?)([^`.\s]+)\1\.(`?)([^`\s(]+)\3/.exec(create);
  if (!head || head[2] !== database)
    throw new Error(`Not a CREATE TABLE of ${database}: ${create.slice(0, 80)}`);
  const table = head[4]!;
  const body = create
    .slice(head[0].length)
    .replace(
      /(Replicated\w*MergeTree\(')([^']*)'/,
      (_, engine: string, path: string) =>
        `${engine}${path.replace(`/${database}/${table}`, `/${staging}/${table}`)}'`,
    );
  return `CREATE TABLE ${ident(staging)}.${ident(table)}${onCluster}${body}`;
}

/**
 * Replaces every table of the layout's database with its contents in the backup at `at`. Each
 * table is first made again in a staging database of its own (a fresh name each time) as the live
 * table is defined, with a Keeper path of its own when Replicated (stagedTableDefinition), and the
 * backup's contents of that table restored into it (`allow_different_table_def`: parts of a table
 * that has gained columns since the snapshot read those as their defaults); a table the backup
 * does not hold (BACKUP_ENTRY_NOT_FOUND), or NOT_RESTORED, is left alone. The rows `keep` names are copied from the
 * current tables into the staged ones (through `client`, the node Sift writes metadata through);
 * then each restored table is exchanged with its staged twin and the staging database, now holding
 * the previous contents, is dropped. A failure before the exchange leaves the current tables as
 * they were.
 *
 * @param client - a client of the server
 * @param layout - the database and where its tables live
 * @param at - the backup's disk and path
 * @param keep - rows to carry over from the current tables (the audit log)
 * @throws the engine's error; the current tables stay as they were until every table is restored
 */
export async function restoreDatabase(
  client: ClickHouseClient,
  layout: TableLayout,
  at: BackupLocation,
  keep: KeptRows[] = [],
): Promise<void> {
  const stagingName = `${layout.database}__restore_${randomBytes(4).toString('hex')}`;
  const staging = ident(stagingName);
  const drop = () => layout.everyNode(`DROP DATABASE IF EXISTS ${staging}${layout.onCluster} SYNC`);
  try {
    await layout.everyNode(`CREATE DATABASE ${staging}${layout.onCluster}`);
    // Each node (or the cluster at once): the tables it holds, restored from its own backup.
    const restored = await layout.eachNode(async (node, i) => {
      const rs = await node.query({
        query: `SELECT name, create_table_query FROM system.tables
                WHERE database = {db:String} AND NOT is_temporary AND name NOT IN {kept:Array(String)}
                ORDER BY name`,
        query_params: { db: layout.database, kept: NOT_RESTORED },
        format: 'JSONEachRow',
      });
      const tables: string[] = [];
      for (const { name, create_table_query: create } of await rs.json<{
        name: string;
        create_table_query: string;
      }>()) {
        await node.command({
          query: stagedTableDefinition(create, layout.database, stagingName, layout.onCluster),
        });
        try {
          await node.command({
            query: `RESTORE TABLE ${layout.db}.${ident(name)} AS ${staging}.${ident(name)}${layout.onCluster}
                    FROM ${destination(layout, at, i)} SETTINGS allow_different_table_def = 1`,
          });
          tables.push(name);
        } catch (e) {
          if ((e as { code?: unknown }).code !== BACKUP_ENTRY_NOT_FOUND) throw e;
        }
      }
      return tables;
    });
    const here = restored[0] ?? [];
    for (const k of keep) {
      if (!here.includes(k.table)) continue;
      await client.command({
        query: `INSERT INTO ${staging}.${ident(k.table)} SELECT * FROM ${layout.db}.${ident(k.table)} WHERE ${k.where}`,
      });
    }
    await layout.eachNode(async (node, i) => {
      for (const table of restored[i]!) {
        await node.command({
          query: `EXCHANGE TABLES ${layout.db}.${ident(table)} AND ${staging}.${ident(table)}${layout.onCluster}`,
        });
      }
    });
  } finally {
    await drop();
  }
}

/**
 * Tables a restore leaves as they are: what nodes away still have to run (node-catch-up.ts) is
 * about the cluster now, not the snapshot's.
 */
const NOT_RESTORED = ['node_catch_up'];

/** ClickHouse's code for a table the backup does not hold. */
const BACKUP_ENTRY_NOT_FOUND = '605';
