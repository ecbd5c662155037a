/**
 * Entry point of a stand-alone ingest worker (the scale-out mode): processes the ingest queue against
 * the ClickHouse server at CLICKHOUSE_URL, the Redis at REDIS_URL and the shared DATA_DIR/blobs.
 * The all-in-one `npm start` runs the same worker inside the API process instead.
 */
import path from 'node:path';
import { openStorage } from '@sift/clickhouse';
import { disablePretenuring } from './heap.ts';
import { startIngestWorker } from './worker.ts';

const env = process.env;
if (!env.CLICKHOUSE_URL) {
  console.error('A stand-alone ingest worker needs CLICKHOUSE_URL (embedded chDB is locked to one process).');
  process.exit(1);
}
disablePretenuring();
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const storage = await openStorage({
  url: env.CLICKHOUSE_URL,
  user: env.CLICKHOUSE_USER ?? 'default',
  password: env.CLICKHOUSE_PASSWORD ?? '',
  database: env.CLICKHOUSE_DATABASE ?? 'sift',
  dataDir,
});
const worker = startIngestWorker({
  storage,
  blobDir: path.join(dataDir, 'blobs'),
  connection: { url: env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  prefix: 'sift',
});
console.log('Sift ingest worker running');
const stop = async () => {
  await worker.close();
  await storage.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
