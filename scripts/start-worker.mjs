// `npm run worker`: bundles the stand-alone ingest worker (scripts/build-server.mjs) and runs it on
// plain Node. It needs CLICKHOUSE_URL (a ClickHouse server) and, unless every process shares one
// DATA_DIR, S3_BUCKET for the originals (docs/operations.md, "Scale-out").
import { buildServer } from './build-server.mjs';

const worker = await buildServer('ingest-worker/src/main.ts', 'dist/ingest-worker.mjs');
await import(worker);
