/**
 * Start-up refuses a Redis that may evict keys (queued jobs would be lost without a trace) and warns
 * about one that would evict only once given a memory limit. Each case runs a Redis of its own.
 */
import { afterEach, expect, it } from 'vitest';
import { checkRedis } from '@sift/shared/redis';
import { startTestRedis, type TestRedis } from './support/redis.ts';
import { startTestSift } from './support/sift.ts';

let redis: TestRedis | null = null;
afterEach(async () => {
  await redis?.stop();
  redis = null;
});

/** Starts a Redis of this test's own with `options`; resolves with its URL once it answers. */
async function startRedis(...options: string[]): Promise<string> {
  redis = await startTestRedis(...options);
  return redis.url;
}

it('refuses to start on a Redis that evicts keys under its memory limit', async () => {
  const redisUrl = await startRedis('--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru');
  await expect(startTestSift({ redisUrl })).rejects.toThrow(
    "Sift's ingest queue would lose jobs when Redis evicts keys: set `maxmemory-policy noeviction` in its configuration (it is allkeys-lru).",
  );
});

it('only warns when the policy would evict but Redis has no memory limit', async () => {
  const redisUrl = await startRedis('--maxmemory-policy', 'volatile-lru');
  expect((await checkRedis(redisUrl)).warning).toMatch(/it is volatile-lru\); it has no memory limit now/);
});

it('accepts noeviction', async () => {
  const redisUrl = await startRedis('--maxmemory', '64mb', '--maxmemory-policy', 'noeviction');
  expect(await checkRedis(redisUrl)).toEqual({ warning: null });
});
