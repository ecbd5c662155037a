/**
 * Liveness and readiness (issue 36): what a load balancer, an orchestrator or an operator asks a
 * Sift process. Live: the process answers. Ready: it can serve, since everything it needs answers
 * (ClickHouse, Redis, the object store), each asked with a deadline of its own.
 */
import { Router, type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Storage } from '@sift/clickhouse';
import type { ObjectStore } from '@sift/object-store';

/** Longest wait for one dependency's answer before it counts as unreachable, ms. */
export const READINESS_DEADLINE_MS = 2_000;

/** What readiness found: each dependency reachable or not, and whether all were. */
export interface Readiness {
  ready: boolean;
  checks: { clickhouse: boolean; redis: boolean; objectStore: boolean };
}

/** The object a readiness check asks the object store about (never written: its absence is an answer). */
const PROBE_KEY = 'health/readiness-probe';

/** Resolves true when `probe` resolves truthy within `ms`; false when it rejects, is falsy or is late. */
async function answersWithin(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      probe().then(
        (v) => Boolean(v),
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks each dependency once, all together, each within `deadlineMs`.
 *
 * @returns the answer of each (never rejects)
 */
export async function readiness(
  deps: { storage: Storage; redis: Redis; objects: ObjectStore },
  deadlineMs = READINESS_DEADLINE_MS,
): Promise<Readiness> {
  const [clickhouse, redis, objectStore] = await Promise.all([
    answersWithin(() => deps.storage.ping(), deadlineMs),
    answersWithin(async () => (await deps.redis.ping()) === 'PONG', deadlineMs),
    // A missing object is an answer (null): only an error or silence says the store is out of reach.
    answersWithin(async () => ((await deps.objects.size(PROBE_KEY)) ?? 0) >= 0, deadlineMs),
  ]);
  return { ready: clickhouse && redis && objectStore, checks: { clickhouse, redis, objectStore } };
}

/**
 * `GET /health/live` (200 while the process answers), `GET /health/ready` and `GET /health` (200
 * when every dependency answers, else 503; the body says which do). Unauthenticated, as probes are.
 */
export function healthRoutes(deps: { storage: Storage; redis: Redis; objects: ObjectStore }): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'live' });
  });
  const ready: RequestHandler = async (_req, res) => {
    const found = await readiness(deps);
    res.status(found.ready ? 200 : 503).json({
      status: found.ready ? 'ready' : 'not ready',
      ...found.checks,
    });
  };
  router.get('/health/ready', ready);
  router.get('/health', ready);
  return router;
}
