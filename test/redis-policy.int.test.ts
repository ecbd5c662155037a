/**
 * Start-up refuses a Redis that may evict keys (queued jobs would be lost without a trace) and warns
 * about one that would evict only once given a memory limit. Each case runs a Redis of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
import { checkRedis } from '@sift/shared/redis';
import { freePort, startTestSift, waitFor } from './support/sift.ts';

let redis: ChildProcess | null = null;
afterEach(async () => {
  if (redis && redis.exitCode === null) {
    const exited = new Promise((r) => redis!.once('exit', r));
    redis.kill('SIGTERM');
    await exited;
  }
  redis = null;
});

/** Starts redis-server on a free loopback port with `options`; resolves with its URL once it answers. */
async function startRedis(...options: string[]): Promise<string> {
  const port = await freePort();
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...options],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      const client = new Redis(url, {
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    },
    (up) => up,
    { intervalMs: 50, what: 'redis-server to answer' },
  );
  return url;
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
