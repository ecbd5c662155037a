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
 * Replaces every table of the layout's database with its contents in the backup at `at`. The
 * backup is first restored as a staging database of its own (a fresh name each time, so Replicated
 * tables get Keeper paths of their own); the rows `keep` names are copied from the current tables
 * into the staged ones (through `client`, the node Sift writes metadata through); then each table
 * is exchanged with its staged twin and the staging database, now holding the previous contents,
 * is dropped. A failure before the exchange leaves the current tables as they were. Tables of the
 * database not in the backup are left alone.
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
  const staging = ident(`${layout.database}__restore_${randomBytes(4).toString('hex')}`);
  const drop = () => layout.everyNode(`DROP DATABASE IF EXISTS ${staging}${layout.onCluster} SYNC`);
  try {
    await layout.eachNode((node, i) =>
      node.command({
        query: `RESTORE DATABASE ${layout.db} AS ${staging}${layout.onCluster} FROM ${destination(layout, at, i)}`,
      }),
    );
    const staged = async (node: ClickHouseClient) => {
      const rs = await node.query({
        query: `SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name`,
        query_params: { db: staging.slice(1, -1) },
        format: 'JSONEachRow',
      });
      return (await rs.json<{ name: string }>()).map((r) => r.name);
    };
    const here = await staged(client);
    for (const k of keep) {
      if (!here.includes(k.table)) continue;
      await client.command({
        query: `INSERT INTO ${staging}.${ident(k.table)} SELECT * FROM ${layout.db}.${ident(k.table)} WHERE ${k.where}`,
      });
    }
    await layout.eachNode(async (node) => {
      for (const table of await staged(node)) {
        await node.command({
          query: `EXCHANGE TABLES ${layout.db}.${ident(table)} AND ${staging}.${ident(table)}${layout.onCluster}`,
        });
      }
    });
  } finally {
    await drop();
  }
}
