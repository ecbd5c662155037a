/**
 * The scale-out scenarios (test/support/scale-out-suite.ts) on a two-shard ClickHouse cluster: two
 * test-only servers (test/support/clickhouse-cluster.ts) with the Distributed `rows` over each
 * shard's `rows_local`. These servers have no Keeper, so the cluster is unreplicated
 * (CLICKHOUSE_REPLICATED=false) and schema changes and deletes take the path that sends them to
 * each node (CLICKHOUSE_NODE_URLS), not ON CLUSTER; those two run only on a real cluster. Each
 * server has a backup disk, so snapshots are taken and restored node by node.
 */
import { startTestCluster } from './support/clickhouse-cluster.ts';
import { startTestS3 } from './support/s3.ts';
import { scaleOutSuite } from './support/scale-out-suite.ts';

scaleOutSuite(
  async () => {
    const [cluster, s3] = await Promise.all([
      startTestCluster(2, 'backups'),
      startTestS3('scale-out-cluster'),
    ]);
    const shards = cluster.shards.map((s) => s.url);
    return {
      clickhouse: { url: shards[0]!, user: 'default', password: '' },
      shards,
      env: {
        CLICKHOUSE_CLUSTER: cluster.name,
        CLICKHOUSE_REPLICATED: 'false',
        CLICKHOUSE_NODE_URLS: shards.join(','),
        CLICKHOUSE_BACKUP_DISK: 'backups',
      },
      s3: s3.options,
      redisUrl: 'redis://127.0.0.1:6379',
      shard: { stop: () => cluster.stopShard(1), start: () => cluster.startShard(1) },
      async stop() {
        await s3.stop();
        await cluster.stop();
      },
    };
  },
  { cluster: true, snapshots: true, shardLoss: true },
);
