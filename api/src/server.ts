import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Confirmations } from './admin/confirmations.ts';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Storage } from '@sift/clickhouse';
import {
  disablePretenuring,
  openConfiguredStorage,
  startIngestRuntime,
  watchQueueMetrics,
} from '@sift/ingest-worker';
import { startMetricsServer } from '@sift/shared/metrics';
import { createLogger, logFunction } from '@sift/shared/logger';
import type { ErrorBody } from '@sift/shared/contracts';
import { INGEST_QUEUE, type IngestFilePayload } from '@sift/shared/jobs';
import { checkRedis, RecordVersions } from '@sift/shared/redis';
import { settlesWithin } from '@sift/shared/settle';
import { failFastRedis, UploadTracker } from '@sift/shared/upload-tracking';
import { createApp } from './app.ts';
import { createDevIdp } from './auth/dev-idp.ts';
import { bullIngestQueue } from './files/ingest-queue.ts';
import { isLoopback, listenHost, loadConfig, type Config } from './config.ts';

/** The built web app, served by the all-in-one process. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface RunningSift {
  /** The origin the app answers at, e.g. `http://localhost:8080`. */
  url: string;
  config: Config;
  server: Server;
  /** The process's ClickHouse (tests inspect it and make it fail). */
  storage: Storage;
  /** Where the Prometheus metrics answer (`…/metrics`), when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  /** Stops accepting requests, drains the worker and closes Redis and ClickHouse. */
  close(): Promise<void>;
}

/**
 * The server's answer while storage, queue and app are still being set up: 503 with `Retry-After`,
 * so a load balancer's health check or an early browser is told to come back instead of waiting.
 */
function answerStarting(_req: IncomingMessage, res: ServerResponse): void {
  const body: ErrorBody = { error: 'Sift is starting. Please try again in a moment.', code: 'STARTING' };
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
  res.end(JSON.stringify(body));
}

/**
 * Starts Sift in one process (the all-in-one mode): API, ingest worker, built web app, dev identity
 * provider (when `OIDC_ISSUER` is unset) and embedded ClickHouse under `DATA_DIR`. `overrides`
 * replace values of the environment's configuration (tests use a unique database and queue prefix).
 */
export async function startSift(overrides: Partial<Config> = {}): Promise<RunningSift> {
  const config: Config = { ...loadConfig(), webDir: DEFAULT_WEB_DIR, ...overrides };
  const logger = createLogger(config.runWorker ? 'sift' : 'api', config.logLevel);
  const log = logFunction(logger);
  const host = listenHost(config);
  const redis = await checkRedis(config.redisUrl);
  if (redis.warning) logger.warn(redis.warning);
  disablePretenuring(); // xlsx ingest and exports make short-lived objects by the million (pretenuring.ts)

  // Requests that arrive before the app is ready are answered at once (503, try again), never held.
  const server = createServer(answerStarting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const publicUrl = config.publicUrl ?? `http://localhost:${port}`;
  const issuer = config.oidcIssuer ?? `${publicUrl}/idp`;
  if (!config.oidcIssuer) {
    logger.warn(
      `Development sign-in is on (no OIDC_ISSUER): anyone who reaches ${issuer} signs in as any email. ${isLoopback(host!) ? `Listening on ${host} only.` : `Listening on ${host} (ALLOW_DEV_IDP_ON_NETWORK=true).`}`,
    );
  }

  const storage = await openConfiguredStorage(config, logger);
  const producer = failFastRedis(config.redisUrl, (e) => log('Redis error', e.message));
  const queue = new Queue<IngestFilePayload>(INGEST_QUEUE, {
    connection: producer,
    prefix: config.queuePrefix,
  });
  const tracker = new UploadTracker(producer, config.queuePrefix);
  watchQueueMetrics(queue);
  const metricsServer =
    config.metricsPort === undefined ? null : await startMetricsServer(config.metricsPort, host);
  // The rate limit's own connection: it queues commands while (re)connecting, unlike `producer`.
  const rateLimitRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2000 });
  rateLimitRedis.on('error', () => undefined);
  const rateLimitStore = new RedisStore({
    prefix: `${config.queuePrefix}:rate-limit:`,
    sendCommand: (command: string, ...args: string[]) =>
      rateLimitRedis.call(command, ...args) as Promise<RedisReply>,
  });
  const worker = config.runWorker ? await startIngestRuntime({ config, storage, logger }) : null;
  const devIdp = config.oidcIssuer
    ? undefined
    : await createDevIdp({
        issuer,
        appOrigin: publicUrl,
        clientId: config.oidcClientId,
        audience: config.oidcAudience,
        permissionsClaim: config.permissionsClaim,
        adminEmails: config.adminEmails,
        dataDir: config.dataDir,
        production: config.production,
      });
  const app = createApp({
    config,
    publicUrl,
    issuer,
    storage,
    devIdp,
    log,
    logger,
    tracker,
    rateLimitStore,
    recordVersions: new RecordVersions(producer, config.queuePrefix),
    confirmations: new Confirmations(producer, config.queuePrefix),
    redis: producer,
    queue: bullIngestQueue(queue),
  });
  server.off('request', answerStarting);
  server.on('request', app);

  return {
    url: publicUrl,
    config,
    server,
    storage,
    metricsUrl: metricsServer?.url,
    async close() {
      metricsServer?.server.close();
      // Requests in flight (an export download) get the same time to finish as the worker's jobs.
      const served = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all([
        settlesWithin(served, config.shutdownTimeoutMs).then(() => server.closeAllConnections()),
        worker?.close(),
      ]);
      await queue.close();
      producer.disconnect();
      rateLimitRedis.disconnect();
      await storage.close();
    },
  };
}
