/**
 * Readiness of a Sift process (issue 36; docs/operations.md, "Health checks"): whether everything
 * it needs answers (ClickHouse, Redis, the object store), each asked with a deadline of its own.
 * Both roles answer it: the API at `/api/health/ready`, a stand-alone worker on its metrics port.
 * Node-only: the web app never imports it.
 */
import { settlesWithin } from './settle.ts';

/** Longest wait for one dependency's answer before it counts as unreachable, ms. */
export const READINESS_DEADLINE_MS = 2_000;

/** What readiness found: each dependency reachable or not, and whether all were. */
export interface Readiness {
  ready: boolean;
  checks: { clickhouse: boolean; redis: boolean; objectStore: boolean };
}

/** How to ask each dependency: a probe resolving truthy when it answered well. */
export type ReadinessProbes = Record<keyof Readiness['checks'], () => Promise<unknown>>;

/** Resolves true when `probe` resolves truthy within `ms`; false when it rejects, is falsy or is late. */
async function answersWithin(probe: () => Promise<unknown>, ms: number): Promise<boolean> {
  let answer = false;
  const asked = probe().then(
    (v) => void (answer = Boolean(v)),
    () => undefined,
  );
  return (await settlesWithin(asked, ms)) && answer;
}

/**
 * Asks each dependency once, all together, each within `deadlineMs`.
 *
 * @returns the answer of each (never rejects)
 */
export async function readiness(
  probes: ReadinessProbes,
  deadlineMs = READINESS_DEADLINE_MS,
): Promise<Readiness> {
  const [clickhouse, redis, objectStore] = await Promise.all([
    answersWithin(probes.clickhouse, deadlineMs),
    answersWithin(probes.redis, deadlineMs),
    answersWithin(probes.objectStore, deadlineMs),
  ]);
  return { ready: clickhouse && redis && objectStore, checks: { clickhouse, redis, objectStore } };
}

/** The HTTP answer of a readiness check: 200 when ready, else 503, naming what answered. */
export function readinessAnswer(found: Readiness): { status: number; body: Record<string, unknown> } {
  return {
    status: found.ready ? 200 : 503,
    body: { status: found.ready ? 'ready' : 'not ready', ...found.checks },
  };
}

/** The object a readiness check asks an object store about (never written: its absence is an answer). */
const READINESS_PROBE_KEY = 'health/readiness-probe';

/** The probes of a process holding `storage` (ClickHouse), a Redis connection and `objects`. */
export function readinessProbes(deps: {
  storage: { ping(): Promise<boolean> };
  redis: { ping(): Promise<string> };
  objects: { size(key: string): Promise<number | null> };
}): ReadinessProbes {
  return {
    clickhouse: () => deps.storage.ping(),
    redis: async () => (await deps.redis.ping()) === 'PONG',
    // A missing object is an answer (null): only an error or silence says the store is out of reach.
    objectStore: async () => ((await deps.objects.size(READINESS_PROBE_KEY)) ?? 0) >= 0,
  };
}
