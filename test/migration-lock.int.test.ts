/**
 * Migrations run once when processes that share a ClickHouse server start together: each takes a
 * Redis lock in turn, and a lock whose holder died expires. Against the test-only ClickHouse server.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadWorkerConfig, openConfiguredStorage } from '@sift/ingest-worker';
import { withRedisLock } from '@sift/shared/redis';
import { startTestClickHouse, type TestClickHouse } from './support/clickhouse-server.ts';
import { MIGRATIONS } from './support/migrations.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-migrate-'));
let server: TestClickHouse;
beforeAll(async () => {
  server = await startTestClickHouse();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('applies each migration once when two processes migrate at the same moment', async () => {
  const id = randomUUID().replaceAll('-', '');
  const config = {
    ...loadWorkerConfig({
      CLICKHOUSE_URL: server.url,
      CLICKHOUSE_DATABASE: `migrate_${id}`,
      DATA_DIR: dataDir,
      REDIS_URL,
    }),
    queuePrefix: `sift-migrate-${id}`,
  };
  const [a, b] = await Promise.all([openConfiguredStorage(config), openConfiguredStorage(config)]);
  try {
    const rs = await a.client.query({
      query: `SELECT name, count() AS times FROM ${config.clickhouseDatabase}.schema_migrations GROUP BY name ORDER BY name`,
      format: 'JSONEachRow',
    });
    const applied = await rs.json<{ name: string; times: number }>();
    expect(applied.map((m) => m.name)).toEqual(MIGRATIONS);
    expect(applied.every((m) => Number(m.times) === 1)).toBe(true);
    expect(await b.ping()).toBe(true);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

it('takes a lock over once its holder stopped renewing it', async () => {
  const key = `sift-lock-test:${randomUUID()}`;
  const redis = new Redis(REDIS_URL);
  try {
    await redis.set(key, 'a process that died', 'PX', 300);
    const ran = await withRedisLock(REDIS_URL, key, async () => 'ran', { ttlMs: 1000, waitMs: 30_000 });
    expect(ran).toBe('ran');
    expect(await redis.exists(key)).toBe(0); // released by its holder
  } finally {
    redis.disconnect();
  }
});
