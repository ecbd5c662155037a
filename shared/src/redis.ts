/** Start-up checks of the Redis that holds Sift's ingest queue and upload tracking. */
import { randomUUID } from 'node:crypto';
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
 *
 * @param url - the Redis URL
 * @returns a warning to log, if any
 * @throws Error when Redis does not answer or would evict keys
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

/** How long a lock lives without renewal, and how long a process waits for one, in ms. */
export interface RedisLockTiming {
  /** The key's expiry; the holder renews it at a third of this while its work runs. */
  ttlMs: number;
  /** Longest wait for a lock another process holds before giving up with an Error. */
  waitMs: number;
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Runs `work` holding the Redis lock `key` (SET NX with an expiry, renewed while `work` runs and
 * released only by its holder), so one process at a time runs it across every process sharing
 * the Redis. A holder that dies leaves the lock to expire after `ttlMs`. Waits for a held lock,
 * polling; throws an Error naming the key after `waitMs`. Resolves or rejects as `work` does.
 *
 * @param redisUrl - the Redis URL
 * @param key - the lock's key
 * @param work - what runs under the lock
 * @param timing - the lock's time to live and how long to wait for it, in ms
 * @returns what `work` resolves with
 * @throws what `work` throws, or Error when the lock is not had in time
 */
export async function withRedisLock<T>(
  redisUrl: string,
  key: string,
  work: () => Promise<T>,
  timing: RedisLockTiming = { ttlMs: 30_000, waitMs: 600_000 },
): Promise<T> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: true });
  redis.on('error', () => undefined);
  const token = randomUUID();
  try {
    await redis.connect();
    const deadline = Date.now() + timing.waitMs;
    while ((await redis.set(key, token, 'PX', timing.ttlMs, 'NX')) !== 'OK') {
      if (Date.now() > deadline)
        throw new Error(
          `Gave up waiting for the lock ${key}, held by another process for over ${timing.waitMs} ms.`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
    const renew = setInterval(() => {
      redis.eval(RENEW, 1, key, token, String(timing.ttlMs)).catch(() => undefined);
    }, timing.ttlMs / 3);
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * Versions of the account and file records, kept in Redis so every process sharing it sees a
 * change made by any other (an API process, an ingest worker). Whoever writes records calls
 * {@link bump} after the write: for the owners written, or `'all'` after a restore replaced every
 * table. Caches of records read {@link read} before they reuse what they hold, and reuse it only
 * when the version is the one they read before loading it.
 */
export class RecordVersions {
  readonly #redis: Redis;
  readonly #all: string;
  readonly #prefix: string;

  /** `redis`: a connection the caller owns; `prefix`: the key prefix (the queue prefix). */
  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#all = `${prefix}:records:version`;
    this.#prefix = `${prefix}:records:version:`;
  }

  /** Marks the records of these owners (account ids) changed, or every owner's with `'all'`. */
  async bump(owners: readonly string[] | 'all'): Promise<void> {
    if (owners === 'all') {
      await this.#redis.incr(this.#all);
      return;
    }
    // Sent together on the one connection; any failure rejects.
    await Promise.all([...new Set(owners)].map((o) => this.#redis.incr(this.#prefix + o)));
  }

  /**
   * The version of one owner's records: an opaque string that differs after every {@link bump}
   * covering the owner. Rejects when Redis does not answer (the caller then reads the records).
   */
  async read(owner: string): Promise<string> {
    const [all, own] = await this.#redis.mget(this.#all, this.#prefix + owner);
    return `${all ?? 0}.${own ?? 0}`;
  }
}
