/**
 * Sift alone in a process of its own, for the benchmarks' memory measures: the API's peak RSS during
 * an export (`npm run bench:search`) or an upload's ingest (`npm run bench`, with the worker) is read
 * from this process, which has done nothing but start and answer.
 *
 *   node dist/bench-serve.mjs <dataDir> <database> <queuePrefix> [<Config overrides as JSON>]
 *
 * (the bundle serveAlone in bench-support.ts builds from this file, as `npm start` runs Sift).
 * Prints `READY <url>` once it answers; closes Sift and exits on SIGTERM.
 */
import { startSift, type Config } from '@sift/api';
import { benchSiftOptions } from './bench-options.ts';

const [dataDir, database, queuePrefix, overrides] = process.argv.slice(2);
if (!dataDir || !database || !queuePrefix) {
  console.error(
    'usage: node dist/bench-serve.mjs <dataDir> <database> <queuePrefix> [<Config overrides as JSON>]',
  );
  process.exit(2);
}
const sift = await startSift({
  ...benchSiftOptions(dataDir, database, queuePrefix),
  ...(JSON.parse(overrides ?? '{}') as Partial<Config>),
});
process.once('SIGTERM', () => {
  void sift.close().finally(() => process.exit(0));
});
console.log(`READY ${sift.url}`);
