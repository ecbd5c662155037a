/**
 * What the benchmark scripts share besides their data (bench-data.ts): memory figures from Linux's
 * /proc, and the Sift configuration a benchmark runs (`bench-search.ts` in its own process and
 * `bench-serve.ts` in a child on the same data).
 */
import { readFileSync } from 'node:fs';
import type { Config } from '@sift/api';

/**
 * A memory field of /proc/<pid>/status in bytes (VmRSS: now; VmHWM: the high-water mark since
 * start or the last write of 5 to clear_refs; RssAnon: private), or 0 where there is no such file
 * or field (not Linux).
 */
export function procStatus(pid: number | 'self', field: 'VmRSS' | 'VmHWM' | 'RssAnon'): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 0;
  }
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}

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
