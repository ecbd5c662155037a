/**
 * Entry point of a stand-alone ingest worker (the scale-out mode): processes the ingest queue against
 * the ClickHouse server at CLICKHOUSE_URL, the Redis at REDIS_URL and the shared DATA_DIR/blobs.
 * The all-in-one `npm start` runs the same runtime inside the API process instead.
 */
import { startMetricsServer } from '@sift/shared/metrics';
import { loadWorkerConfig } from './config.ts';
import { startIngestRuntime } from './runtime.ts';

try {
  const config = loadWorkerConfig();
  if (!config.clickhouseUrl) {
    throw new Error(
      'A stand-alone ingest worker needs CLICKHOUSE_URL (embedded chDB is locked to one process).',
    );
  }
  const runtime = await startIngestRuntime({ config });
  // Its metrics, and its liveness and readiness beside them (a worker has no other port).
  const served =
    config.metricsPort === undefined
      ? null
      : await startMetricsServer(config.metricsPort, '0.0.0.0', runtime.probes);
  if (served) console.log(`Metrics at ${served.url}`);
  console.log('Sift ingest worker running');
  const stop = async () => {
    await runtime.close();
    served?.server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
