/**
 * Liveness and readiness of the API (issue 36): what a load balancer, an orchestrator or an
 * operator asks. Live: the process answers. Ready: ClickHouse, Redis and the object store all
 * answer (`@sift/shared/health`).
 */
import { Router, type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Storage } from '@sift/clickhouse';
import type { ObjectStore } from '@sift/object-store';
import { readiness, readinessAnswer, readinessProbes } from '@sift/shared/health';

/**
 * `GET /health/live` (200 while the process answers), `GET /health/ready` and `GET /health` (200
 * when every dependency answers, else 503; the body says which do). Unauthenticated, as probes are.
 */
export function healthRoutes(deps: { storage: Storage; redis: Redis; objects: ObjectStore }): Router {
  const router = Router();
  const probes = readinessProbes(deps);
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'live' });
  });
  const ready: RequestHandler = async (_req, res) => {
    const { status, body } = readinessAnswer(await readiness(probes));
    res.status(status).json(body);
  };
  router.get('/health/ready', ready);
  router.get('/health', ready);
  return router;
}
