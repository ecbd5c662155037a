/**
 * Sift alone in a process of its own, for `npm run bench:search`'s memory measure: the API's peak
 * RSS during an export is read from this process, which has done nothing but start and answer.
 *
 *   tsx scripts/bench-serve.ts <dataDir> <database> <queuePrefix>
 *
 * Prints `READY <url>` once it answers; closes Sift and exits on SIGTERM.
 */
import { startSift } from '@sift/api';

const [dataDir, database, queuePrefix] = process.argv.slice(2);
if (!dataDir || !database || !queuePrefix) {
  console.error('usage: tsx scripts/bench-serve.ts <dataDir> <database> <queuePrefix>');
  process.exit(2);
}
const sift = await startSift({
  port: 0,
  dataDir,
  clickhouseDatabase: database,
  queuePrefix,
  webDir: undefined,
  publicUrl: undefined,
  oidcIssuer: undefined,
  runWorker: false,
});
process.once('SIGTERM', () => {
  void sift.close().finally(() => process.exit(0));
});
console.log(`READY ${sift.url}`);
