/**
 * A ClickHouse cluster for tests: test-only servers (clickhouse-server.ts), one a shard, that know
 * each other as the cluster `sift` through `remote_servers` over the native protocol. Unreplicated:
 * these servers have no Keeper, so Replicated engines and `ON CLUSTER` cannot run on them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverConfig, startTestClickHouse, type TestClickHouse } from './clickhouse-server.ts';
import { freePort } from './ports.ts';

export interface TestCluster {
  /** The cluster's name in `remote_servers`. */
  name: string;
  /** One server a shard, in shard order (a shard stopped and started again is a new server). */
  shards: TestClickHouse[];
  /** Stops shard `i`'s server (SIGTERM), keeping its data. */
  stopShard(i: number): Promise<void>;
  /** Starts shard `i`'s server again on its data and ports; resolves once it answers. */
  startShard(i: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `shards` servers (default 2) forming the cluster `sift`, each with the backup disk
 * `backupDisk` of its own when given; resolves once all answer.
 */
export async function startTestCluster(shards = 2, backupDisk?: string): Promise<TestCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sift-cluster-'));
  const tcpPorts: number[] = [];
  for (let i = 0; i < shards; i++) tcpPorts.push(await freePort());
  const remoteServers = `<remote_servers><sift>${tcpPorts
    .map((port) => `<shard><replica><host>127.0.0.1</host><port>${port}</port></replica></shard>`)
    .join('')}</sift></remote_servers>`;
  const nodes = tcpPorts.map((tcp, i) => {
    const nodeDir = path.join(dir, `node-${i}`);
    mkdirSync(path.join(nodeDir, 'data'), { recursive: true });
    const configFile = serverConfig(nodeDir, { xml: remoteServers, backupDisk });
    return { tcp, configFile, dataDir: path.join(nodeDir, 'data') };
  });
  const started = await Promise.allSettled(nodes.map((node) => startTestClickHouse(node)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return {
    name: 'sift',
    shards: servers,
    stopShard: (i) => servers[i]!.stop(),
    async startShard(i) {
      servers[i] = await startTestClickHouse({ ...nodes[i]!, httpPort: servers[i]!.httpPort });
    },
    stop,
  };
}
