import type { RequestHandler } from 'express';
import { isLoopback } from './config.ts';

/**
 * Sends a browser that opened the web app at another loopback name of the public origin
 * (`http://127.0.0.1:8080` when PUBLIC_URL is `http://localhost:8080`, or `[::1]`) to the public
 * origin itself, same path and query (307). Sign-in returns only to the registered origin, so at an
 * alias it failed with 'redirect_uri did not match'. Requests for other hosts, other ports, or when
 * the public origin is not a loopback name pass through. Mount before the web app's pages.
 */
export function loopbackAliasRedirect(publicUrl: string): RequestHandler {
  const origin = new URL(publicUrl);
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  const applies = isLoopback(origin.hostname);
  return (req, res, next) => {
    if (!applies || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    let asked: URL;
    try {
      asked = new URL(`${origin.protocol}//${req.headers.host ?? ''}`);
    } catch {
      return next();
    }
    const askedPort = asked.port || (asked.protocol === 'https:' ? '443' : '80');
    if (asked.hostname === origin.hostname || !isLoopback(asked.hostname) || askedPort !== port)
      return next();
    res.redirect(307, `${origin.origin}${req.originalUrl}`);
  };
}
