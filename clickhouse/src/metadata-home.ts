/**
 * On a cluster without replication (`CLICKHOUSE_REPLICATED=false`), Sift's metadata (accounts,
 * files, exports, upload records) is kept by one node: each node's copy of those tables is its own.
 * A process pointed at another node would read and write other metadata (a user seen as new and
 * inactive, an upload its worker never finds). So the first process to migrate marks its node as
 * the metadata's home on every node, and every process after it must reach that node (issue 36;
 * docs/operations.md, "Running on a ClickHouse cluster").
 */
import type { ClickHouseClient } from '@clickhouse/client';
import type { TableLayout } from './layout.ts';
import { stringLiteral } from './sql.ts';

/** Why a process may not start: its CLICKHOUSE_URL reaches another node than the metadata's home. */
export class MetadataElsewhereError extends Error {}

/**
 * The node `client` reaches, by its host name and native port (the port the cluster's nodes reach
 * each other on; servers started from one library may share a zero server UUID).
 */
async function nodeOf(client: ClickHouseClient): Promise<string> {
  const rs = await client.query({
    query: `SELECT concat(hostName(), ':', toString(getServerPort('tcp_port')))`,
    format: 'JSONCompactEachRow',
  });
  return (await rs.json<[string]>())[0]![0];
}

/**
 * Marks the node `client` reaches as the metadata's home (once: the first process to call this
 * wins) and checks that it is that node, before any migration. Does nothing on one node or a
 * replicated cluster. Call it under the migration lock.
 *
 * @param nodeUrls - each node's URL with its client, to name the home in the error
 * @throws MetadataElsewhereError when `client` reaches another node than the home
 */
export async function claimMetadataHome(
  client: ClickHouseClient,
  layout: TableLayout,
  nodeUrls: { url: string; client: ClickHouseClient }[],
): Promise<void> {
  if (!layout.cluster || layout.cluster.replicated) return;
  const me = await nodeOf(client);
  const marked = async () => {
    const rs = await client.query({
      query: `SELECT comment FROM system.tables WHERE database = {db:String} AND name = 'metadata_home'`,
      query_params: { db: layout.database },
      format: 'JSONCompactEachRow',
    });
    return (await rs.json<[string]>())[0]?.[0];
  };
  let home = await marked();
  if (home === undefined) {
    // Not marked yet (a first start): no statement for the nodes otherwise, so a process starts
    // while one of them is down.
    await layout.everyNode(`CREATE DATABASE IF NOT EXISTS ${layout.db}${layout.onCluster}`);
    // The home is the table's comment: one statement, the same on every node, kept by the first.
    await layout.everyNode(
      `CREATE TABLE IF NOT EXISTS ${layout.db}.metadata_home${layout.onCluster} (home String)
       ENGINE = Log COMMENT ${stringLiteral(me)}`,
    );
    home = await marked();
  }
  if (home === me) return;
  let where = `the node ${home} (host and native port)`;
  for (const node of nodeUrls) if ((await nodeOf(node.client).catch(() => '')) === home) where = node.url;
  throw new MetadataElsewhereError(
    `Sift's accounts and files are kept on one node of this cluster (CLICKHOUSE_REPLICATED=false): ${where}. ` +
      'Set CLICKHOUSE_URL to that node in every Sift process (not another node, nor a load balancer), ' +
      'or run a replicated cluster.',
  );
}
