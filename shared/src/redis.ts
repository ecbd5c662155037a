/** Start-up checks of the Redis that holds Sift's ingest queue and upload tracking. */
import { Redis } from 'ioredis';

/** What checkRedis found: a warning to log, if any. */
export interface RedisCheck {
  warning: string | null;
}

/**
 * Checks the Redis at `url` before a process relies on it: it must answer (else throws an Error
 * saying how to provide one), and it must not evict keys, which would silently lose queued jobs:
 * with a memory limit (`maxmemory`) and an eviction policy other than `noeviction` this throws; with
 * no limit (nothing is ever evicted) it only warns. Reads `INFO memory`, which managed Redis
 * services allow where they rename `CONFIG`.
 */
export async function checkRedis(url: string): Promise<RedisCheck> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 3000,
  });
  probe.on('error', () => undefined);
  let info: string;
  try {
    await probe.connect();
    info = await probe.info('memory');
  } catch (e) {
    throw new Error(
      `Redis is not reachable at ${url} (${e instanceof Error ? e.message : String(e)}). Sift needs Redis for its ingest queue: start one (for example \`redis-server --daemonize yes\`) or set REDIS_URL to a reachable Redis.`,
    );
  } finally {
    probe.disconnect();
  }
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const policy = field('maxmemory_policy') ?? 'noeviction';
  if (policy === 'noeviction') return { warning: null };
  const limit = Number(field('maxmemory') ?? 0);
  const advice = `Sift's ingest queue would lose jobs when Redis evicts keys: set \`maxmemory-policy noeviction\` in its configuration (it is ${policy})`;
  if (limit > 0) throw new Error(`${advice}.`);
  return { warning: `${advice}; it has no memory limit now, so nothing is evicted yet.` };
}
