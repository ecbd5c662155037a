/**
 * The API's request log (issue 36; docs/operations.md, "Logs"): one JSON line a request (pino-http)
 * with its id, method, route, status and time, never its headers (tokens) or body. The id is the
 * caller's `X-Request-Id` when it gives a plausible one, else a new UUID; it is answered in
 * `X-Request-Id`, carried into every line the request logs (`req.log`) and into the ingest jobs it
 * queues.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@sift/shared/logger';

/** An id a caller may give (a proxy's or a client's): short, no spaces or control characters. */
const GIVEN_ID = /^[\w.:-]{1,100}$/;

/** The request's id (see requestLog); undefined outside a logged request. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  const id = (req as IncomingMessage & { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** Logs each request of the router it is mounted on to `logger` (health checks are not logged). */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    autoLogging: { ignore: (req) => Boolean(req.url?.startsWith('/health')) },
    serializers: {
      req: (req: { id: unknown; method: unknown; url: unknown }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
      }),
      res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}
