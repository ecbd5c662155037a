/** Request latency of the API for the metrics (`sift_http_request_duration_seconds`). */
import type { Request, RequestHandler } from 'express';
import { httpRequestSeconds } from '@sift/shared/metrics';

/**
 * The route a request took as a pattern (`/api/file/files/:id`), never the path itself (ids would
 * make a series each); `unmatched` when no route answered it (404s, the web app's files).
 */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** Times each request of the router it is mounted on, from arrival to the response's end. */
export function requestMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpRequestSeconds.startTimer();
    res.once('finish', () =>
      end({ method: req.method, route: routeOf(req), status: String(res.statusCode) }),
    );
    next();
  };
}
