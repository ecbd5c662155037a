/**
 * Run in a process of its own by test/engine-loading.int.test.ts:
 *
 *   node --import tsx test/support/engine-loaded.ts server|embedded <dataDir>
 *
 * Opens a ClickHouse client against a (never contacted) server address or embedded in `dataDir`,
 * and prints `LOADED` or `NOT LOADED`: whether chDB's library is mapped into the process.
 */
import { readFileSync } from 'node:fs';
import { openClickHouse } from '@sift/clickhouse';

const [mode, dataDir] = process.argv.slice(2);
const client = openClickHouse({
  url: mode === 'server' ? 'http://127.0.0.1:9' : undefined,
  user: 'default',
  password: '',
  database: 'loading',
  dataDir: dataDir!,
});
const mapped = readFileSync('/proc/self/maps', 'utf8').includes('/libchdb.so');
console.log(mapped ? 'LOADED' : 'NOT LOADED');
await client.close();
