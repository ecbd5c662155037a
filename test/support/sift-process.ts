/**
 * Runs Sift in a process of its own for tests that must kill it: `node --import tsx
 * test/support/sift-process.ts '<Config overrides as JSON>'`. Prints `READY <url>` once it serves.
 */
import { startSift } from '@sift/api';

const overrides = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof startSift>[0];
const sift = await startSift(overrides);
console.log(`READY ${sift.url}`);
process.once('SIGTERM', () => {
  void sift.close().then(() => process.exit(0));
});
