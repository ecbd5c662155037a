/**
 * What the benchmark scripts share besides their data (bench-data.ts): memory figures from Linux's
 * /proc, and the Sift configuration a benchmark runs (`bench-search.ts` in its own process and
 * `bench-serve.ts` in a child on the same data).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@sift/api';
import { buildServer, SERVER_NODE_FLAGS } from './build-server.mjs';

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

/** Peak memory of a process over one step, in bytes. */
export interface Peak {
  /** VmHWM: the kernel's high-water mark of resident memory (reset at the start of the step). */
  rss: number;
  /** Largest RssAnon seen (private memory: heaps, engine caches), sampled every 20 ms. */
  private: number;
  /** VmRSS when the step started (what earlier steps left: V8 heap, engine caches). */
  before: number;
}

/**
 * Starts watching a process's memory (Linux /proc; zeros elsewhere): resets its VmHWM to its
 * current RSS and samples its RssAnon every 20 ms until `stop`, which returns the step's {@link Peak}
 * (the sampling does not keep the process alive).
 */
export function watchMemory(pid: number | 'self'): { stop: () => Peak } {
  const before = procStatus(pid, 'VmRSS');
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  } catch {
    // not Linux: VmHWM is then the process's peak so far
  }
  let peakPrivate = procStatus(pid, 'RssAnon');
  const sampler = setInterval(() => (peakPrivate = Math.max(peakPrivate, procStatus(pid, 'RssAnon'))), 20);
  sampler.unref(); // a step that throws does not keep the benchmark alive
  return {
    stop: () => {
      clearInterval(sampler);
      return {
        rss: procStatus(pid, 'VmHWM'),
        private: Math.max(peakPrivate, procStatus(pid, 'RssAnon')),
        before,
      };
    },
  };
}

/** A Sift in a process of its own (scripts/bench-serve.ts): its address, pid, and how to stop it. */
export interface SiftAlone {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Starts Sift in a process of its own on `dataDir` (see bench-serve.ts), with `overrides` of the
 * benchmark's configuration (`runWorker: true` runs the ingest worker too, as `npm start` does).
 * Like `npm start`, the process runs a bundle on plain Node with SERVER_NODE_FLAGS
 * (scripts/build-server.mjs), not tsx.
 * Resolves once it answers.
 */
export async function serveAlone(
  dataDir: string,
  database: string,
  queuePrefix: string,
  overrides: Partial<Config> = {},
): Promise<SiftAlone> {
  const bundle = await buildServer('scripts/bench-serve.ts', 'dist/bench-serve.mjs');
  const child = spawn(process.execPath, [
    ...SERVER_NODE_FLAGS,
    bundle,
    dataDir,
    database,
    queuePrefix,
    JSON.stringify(overrides),
  ]);
  child.stderr.on('data', (c: Buffer) => process.stderr.write(c));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^READY (\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bench-serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs curl in its own process against Sift's API with `token` (given to curl in a header file
 * readable only by this user, in `dir`, removed after), as a real client would: `args` are curl's
 * arguments after the authorization header. Resolves with curl's standard output; rejects when
 * curl fails (`--fail`: an HTTP error status too).
 */
export async function curlApi(dir: string, token: string, args: string[]): Promise<string> {
  const headers = path.join(dir, `auth-header-${process.pid}`);
  writeFileSync(headers, `authorization: Bearer ${token}\n`, { mode: 0o600 });
  try {
    const curl = spawn('curl', ['-sS', '--fail', '-H', `@${headers}`, ...args]);
    let out = '';
    curl.stdout.on('data', (c: Buffer) => (out += c.toString()));
    curl.stderr.on('data', (c: Buffer) => process.stderr.write(c));
    const [code] = (await once(curl, 'close')) as [number];
    if (code !== 0) throw new Error(`curl exited with ${code}: ${args.at(-1)}`);
    return out;
  } finally {
    rmSync(headers, { force: true });
  }
}

/** Longest a benchmark's API call may take before it fails, ms. */
const API_CALL_TIMEOUT_MS = 300_000;

/**
 * Calls Sift's API at `url` with `token`: `api(path)` GETs, `api(path, body)` POSTs `body` as JSON;
 * resolves with the JSON answer, rejects on an HTTP error status with its text. A request on a
 * kept-alive connection the server closed while the benchmark was busy elsewhere (minutes of
 * loading) fails with ECONNRESET before it reached the server: that one is sent again, once.
 */
export function apiCaller(url: string, token: string) {
  const send = (pathname: string, body: unknown) =>
    fetch(`${url}/api${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(API_CALL_TIMEOUT_MS),
    });
  return async <T>(pathname: string, body?: unknown): Promise<T> => {
    const res = await send(pathname, body).catch((e: unknown) => {
      const reset = (e as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
      if (!reset) throw e;
      return send(pathname, body);
    });
    if (!res.ok) throw new Error(`${pathname}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}
