// The configuration every benchmark's Sift starts from; a module of its own so the bundle of
// bench-serve.ts holds nothing else of the benchmarks.
import type { Config } from '@sift/api';

/** Sift for a benchmark: any free port, embedded engine in `dataDir`, no worker, no web app. */
export function benchSiftOptions(dataDir: string, database: string, queuePrefix: string): Partial<Config> {
  return {
    port: 0,
    dataDir,
    clickhouseDatabase: database,
    queuePrefix,
    webDir: undefined,
    publicUrl: undefined,
    oidcIssuer: undefined,
    runWorker: false,
  };
}
