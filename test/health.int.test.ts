/**
 * Liveness and readiness tell the truth (issue 36): ready only while ClickHouse, Redis and the
 * object store all answer, live while the process does.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { startTestClickHouse, type TestClickHouse } from './support/clickhouse-server.ts';
import { startTestRedis, type TestRedis } from './support/redis.ts';
import { startTestS3, type TestS3 } from './support/s3.ts';
import { startTestSift } from './support/sift.ts';

let clickhouse: TestClickHouse;
let redis: TestRedis;
let s3: TestS3;
let s3Stopped = false;
let sift: RunningSift;

beforeAll(async () => {
  [clickhouse, redis, s3] = await Promise.all([startTestClickHouse(), startTestRedis(), startTestS3()]);
  sift = await startTestSift({ clickhouseUrl: clickhouse.url, redisUrl: redis.url, s3: s3.options });
});
afterAll(async () => {
  redis?.child.kill('SIGCONT');
  clickhouse?.child.kill('SIGCONT');
  await sift?.close();
  await Promise.all([clickhouse?.stop(), redis?.stop(), s3Stopped ? undefined : s3?.stop()]);
});

/** `GET /api/health/{which}`: its status and body. */
async function health(which: 'live' | 'ready' | '') {
  const res = await fetch(`${sift.url}/api/health${which ? `/${which}` : ''}`, {
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const READY = { status: 'ready', clickhouse: true, redis: true, objectStore: true };

it('is ready while everything answers, and not while the engine, Redis or the bucket does not', async () => {
  expect(await health('live')).toEqual({ status: 200, body: { status: 'live' } });
  expect(await health('ready')).toEqual({ status: 200, body: READY });
  expect(await health('')).toEqual({ status: 200, body: READY });

  // Each hangs in turn (its connections stay open, nothing answers), then runs again.
  for (const [check, child] of [
    ['redis', redis.child],
    ['clickhouse', clickhouse.child],
  ] as const) {
    child.kill('SIGSTOP');
    expect(await health('ready')).toEqual({
      status: 503,
      body: { ...READY, status: 'not ready', [check]: false },
    });
    expect((await health('live')).status).toBe(200);
    child.kill('SIGCONT');
    expect(await health('ready')).toEqual({ status: 200, body: READY });
  }

  await s3.stop();
  s3Stopped = true;
  expect(await health('')).toEqual({
    status: 503,
    body: { ...READY, status: 'not ready', objectStore: false },
  });
});
