/**
 * Prometheus metrics of a Sift process (issue 36; docs/operations.md, "Metrics"), with prom-client:
 * one registry a process, served on a port of its own (METRICS_PORT) by startMetricsServer. Both
 * roles record into it; the all-in-one process serves the API's and the worker's together.
 * Node-only: the web app never imports it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readiness, readinessAnswer, type ReadinessProbes } from './health.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** This process's registry (process metrics included: CPU, memory, event loop, GC). */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics, prefix: 'sift_' });

/** A histogram of durations in seconds, in this process's registry. */
function seconds<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
  return new Histogram<L>({ name, help, labelNames, buckets, registers: [metrics] });
}

/** Request latency of the API by route (the route's pattern, e.g. `/api/file/files/:id`), s. */
export const httpRequestSeconds = seconds(
  'sift_http_request_duration_seconds',
  'API request latency by method, route pattern and status, in seconds',
  ['method', 'route', 'status'] as const,
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/** Searches by what they look in (`rows`: the files' rows, `people`), s. */
export const searchSeconds = seconds(
  'sift_search_duration_seconds',
  'Search time (page, count and facets) by kind, in seconds',
  ['kind'] as const,
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
);

/** Exports written, by format, from the first row read to the file complete, s. */
export const exportSeconds = seconds(
  'sift_export_duration_seconds',
  'Export time by format, in seconds',
  ['format'] as const,
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
);

/** Rows of GENERAL files made searchable by an ingest. */
export const rowsIngested = new Counter({
  name: 'sift_rows_ingested_total',
  help: 'Rows of uploaded files made searchable',
  registers: [metrics],
});

/** How long each ingest stage took (`Validating file`, …), s. */
export const ingestStageSeconds = seconds(
  'sift_ingest_stage_duration_seconds',
  'Ingest stage durations by stage, in seconds',
  ['stage'] as const,
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
);

/** Ingests that ended, by outcome (`processed`, `failed`, `retried`, `handed_back`). */
export const ingestsEnded = new Counter({
  name: 'sift_ingests_total',
  help: 'Ingest jobs that ended, by outcome',
  labelNames: ['outcome'] as const,
  registers: [metrics],
});

/** Queries the engine refused or failed, by ClickHouse error code ('' when none was given). */
export const engineQueryErrors = new Counter({
  name: 'sift_engine_query_errors_total',
  help: 'ClickHouse queries that failed, by error code',
  labelNames: ['code'] as const,
  registers: [metrics],
});

/** What the queue gauges ask on each scrape (see watchIngestQueue). */
export interface WatchedQueue {
  /** Jobs in each state (`waiting`, `active`, `delayed`, `failed`, …). */
  counts: () => Promise<Record<string, number>>;
  /** Age of the oldest waiting job, ms (null: none waits). */
  oldestWaitingMs: () => Promise<number | null>;
}

let watched: WatchedQueue | null = null;

new Gauge({
  name: 'sift_ingest_queue_jobs',
  help: 'Ingest jobs by state',
  labelNames: ['state'] as const,
  registers: [metrics],
  async collect() {
    const counts = await watched?.counts().catch(() => null);
    if (counts) for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
  },
});

new Gauge({
  name: 'sift_ingest_queue_oldest_waiting_seconds',
  help: 'Age of the oldest waiting ingest job, in seconds (0: none waits)',
  registers: [metrics],
  async collect() {
    const ms = await watched?.oldestWaitingMs().catch(() => null);
    this.set(ms ? ms / 1000 : 0);
  },
});

/**
 * Has the queue gauges report `queue` on each scrape (the process holding the queue calls it: the
 * API, a stand-alone worker; the latest call wins, as tests start several Sifts in one process).
 */
export function watchIngestQueue(queue: WatchedQueue): void {
  watched = queue;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on `port` (0: any free port) and `host`; with
 * `probes` (a process without an API of its own: a stand-alone worker), also `GET /health/live`
 * and `GET /health/ready` (`@sift/shared/health`).
 *
 * @returns the server and the address of its metrics (`http://host:port/metrics`)
 */
export async function startMetricsServer(
  port: number,
  host = '0.0.0.0',
  probes?: ReadinessProbes,
): Promise<{ server: Server; url: string }> {
  const send = (res: ServerResponse, status: number, type: string, body: string) =>
    res.writeHead(status, { 'content-type': type }).end(body);
  const json = 'application/json; charset=utf-8';
  const server = createServer((req, res) => {
    const path = req.method === 'GET' ? req.url?.split('?')[0] : undefined;
    if (path === '/metrics') {
      metrics.metrics().then(
        (body) => send(res, 200, metrics.contentType, body),
        (e: unknown) => send(res, 500, 'text/plain', `${String(e)}\n`),
      );
    } else if (probes && path === '/health/live') {
      send(res, 200, json, JSON.stringify({ status: 'live' }));
    } else if (probes && path === '/health/ready') {
      void readiness(probes).then((found) => {
        const { status, body } = readinessAnswer(found);
        send(res, status, json, JSON.stringify(body));
      });
    } else {
      send(res, 404, 'text/plain', 'Not found: try /metrics\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host;
  return { server, url: `http://${shown}:${address.port}/metrics` };
}
