/**
 * Upload tracking in Redis: upload sessions and the live state of each file in them (status, stage
 * n of m, percent, error), written by the api when files arrive and by the ingest worker as it goes,
 * read by the Upload screen every 5 seconds. Keys expire after TRACKING_TTL_SECONDS of no change.
 *
 * Keys (under `${prefix}:tracking:`): `session:{id}` (JSON), `session:{id}:files` (hash fileId →
 * JSON), `owner:{ownerId}` (sorted set of session ids by creation time).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type {
  TrackedFile,
  UploadFileStatus,
  UploadSession,
  UploadSessionSummary,
} from './contracts/upload-tracking.ts';

export const TRACKING_TTL_SECONDS = 7 * 24 * 3600;

/**
 * A Redis connection for the producer side (enqueueing uploads, upload tracking) that fails fast: a
 * command fails within seconds when Redis does not answer, so an upload answers 503 instead of
 * hanging. BullMQ's workers use their own connections, which wait and reconnect.
 *
 * @param url - the Redis URL
 * @param onError - told of connection errors
 * @returns the connection
 */
export function failFastRedis(url: string, onError: (error: Error) => void): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 3000 });
  redis.on('error', onError);
  return redis;
}

interface StoredSession {
  id: string;
  ownerId: string;
  sessionName: string;
  finalized: boolean;
  createdAt: string;
  /** Files the client said it would send (see createSession). */
  expectedFiles?: number;
}

const DONE: ReadonlySet<UploadFileStatus> = new Set(['COMPLETED', 'FAILED']);

/** A file's state patch: anything but its identity. */
export type TrackedFilePatch = Partial<
  Pick<
    TrackedFile,
    | 'status'
    | 'errorMessage'
    | 'progressPercentage'
    | 'currentStage'
    | 'totalStages'
    | 'stageProgress'
    | 'stageDescription'
  >
>;

/** Reads and writes upload tracking for one Redis key prefix. */
export class UploadTracker {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  #key(...parts: string[]): string {
    return `${this.prefix}:tracking:${parts.join(':')}`;
  }

  /**
   * Creates a session owned by `ownerId`. `expectedFiles`: how many files the client will send;
   * until the session is finalized, those not sent yet count in its total as waiting (0%).
   */
  async createSession(
    ownerId: string,
    sessionName: string,
    finalized: boolean,
    expectedFiles?: number,
  ): Promise<UploadSession> {
    const stored: StoredSession = {
      id: randomUUID(),
      ownerId,
      sessionName,
      finalized,
      createdAt: new Date().toISOString(),
      ...(expectedFiles ? { expectedFiles } : {}),
    };
    const created = Date.parse(stored.createdAt);
    await this.redis
      .multi()
      .set(this.#key('session', stored.id), JSON.stringify(stored), 'EX', TRACKING_TTL_SECONDS)
      .zadd(this.#key('owner', ownerId), created, stored.id)
      .expire(this.#key('owner', ownerId), TRACKING_TTL_SECONDS)
      .exec();
    return view(stored, []);
  }

  /** Adds files to a session (PENDING, or FAILED with a message when refused at upload). */
  async addFiles(
    sessionId: string,
    files: {
      fileId: string;
      fileName: string;
      fileType?: 'GENERAL' | 'AUTHOR';
      status?: UploadFileStatus;
      errorMessage?: string | null;
    }[],
  ): Promise<void> {
    if (!files.length) return;
    const now = new Date().toISOString();
    const entries = files.flatMap((f) => {
      const status = f.status ?? 'PENDING';
      const tracked: TrackedFile = {
        fileId: f.fileId,
        fileName: f.fileName,
        fileType: f.fileType ?? 'GENERAL',
        status,
        isActive: !DONE.has(status),
        isCompleted: DONE.has(status),
        errorMessage: f.errorMessage ?? null,
        progressPercentage: status === 'COMPLETED' ? 100 : 0,
        currentStage: 0,
        totalStages: 0,
        stageProgress: 0,
        stageDescription: status === 'PENDING' ? 'Waiting to be processed' : '',
        addedAt: now,
        updatedAt: now,
      };
      return [f.fileId, JSON.stringify(tracked)];
    });
    await this.redis
      .multi()
      .hset(this.#key('session', sessionId, 'files'), ...entries)
      .expire(this.#key('session', sessionId, 'files'), TRACKING_TTL_SECONDS)
      .expire(this.#key('session', sessionId), TRACKING_TTL_SECONDS)
      .exec();
  }

  /** Updates one file's state; `isActive`/`isCompleted` follow the status. A missing file is ignored. */
  async updateFile(sessionId: string, fileId: string, patch: TrackedFilePatch): Promise<void> {
    const key = this.#key('session', sessionId, 'files');
    const raw = await this.redis.hget(key, fileId);
    if (!raw) return;
    const next: TrackedFile = {
      ...(JSON.parse(raw) as TrackedFile),
      ...patch,
      updatedAt: new Date().toISOString(),
    };
    next.isActive = !DONE.has(next.status);
    next.isCompleted = DONE.has(next.status);
    await this.redis.multi().hset(key, fileId, JSON.stringify(next)).expire(key, TRACKING_TTL_SECONDS).exec();
  }

  /** Marks a session finalized: no more files will be added. Null when it is not the owner's. */
  async finalize(ownerId: string, sessionId: string): Promise<UploadSessionSummary | null> {
    const stored = await this.#session(ownerId, sessionId);
    if (!stored) return null;
    stored.finalized = true;
    await this.redis.set(this.#key('session', sessionId), JSON.stringify(stored), 'EX', TRACKING_TTL_SECONDS);
    return this.summary(ownerId, sessionId);
  }

  /** The owner's session with its files, or null (missing, expired or another account's). */
  async summary(ownerId: string, sessionId: string): Promise<UploadSessionSummary | null> {
    const stored = await this.#session(ownerId, sessionId);
    if (!stored) return null;
    const files = await this.#files(sessionId);
    return { session: view(stored, files), files };
  }

  /** The owner's sessions with their files, newest first. */
  async list(ownerId: string): Promise<UploadSessionSummary[]> {
    const ids = await this.redis.zrevrange(this.#key('owner', ownerId), 0, -1);
    const out: UploadSessionSummary[] = [];
    for (const id of ids) {
      const s = await this.summary(ownerId, id);
      if (s) out.push(s);
      else await this.redis.zrem(this.#key('owner', ownerId), id); // expired
    }
    return out;
  }

  /** Removes the owner's sessions created more than `daysOld` days ago; returns how many. */
  async cleanup(ownerId: string, daysOld: number): Promise<number> {
    return this.#removeBefore(ownerId, `(${Date.now() - daysOld * 24 * 3600 * 1000}`);
  }

  /** Removes every session of the owner (their account is being deleted); returns how many. */
  async removeAll(ownerId: string): Promise<number> {
    return this.#removeBefore(ownerId, '+inf');
  }

  /** Removes every session of every account; returns how many sessions there were. */
  async clearAll(): Promise<number> {
    let sessions = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', this.#key('*'), 'COUNT', 500);
      cursor = next;
      sessions += keys.filter((k) => /:tracking:session:[^:]+$/.test(k)).length;
      if (keys.length) await this.redis.del(...keys);
    } while (cursor !== '0');
    return sessions;
  }

  async #removeBefore(ownerId: string, max: string): Promise<number> {
    const ids = await this.redis.zrangebyscore(this.#key('owner', ownerId), '-inf', max);
    if (!ids.length) return 0;
    const multi = this.redis.multi();
    for (const id of ids) multi.del(this.#key('session', id), this.#key('session', id, 'files'));
    multi.zrem(this.#key('owner', ownerId), ...ids);
    await multi.exec();
    return ids.length;
  }

  async #session(ownerId: string, sessionId: string): Promise<StoredSession | null> {
    const raw = await this.redis.get(this.#key('session', sessionId));
    const stored = raw ? (JSON.parse(raw) as StoredSession) : null;
    return stored && stored.ownerId === ownerId ? stored : null;
  }

  async #files(sessionId: string): Promise<TrackedFile[]> {
    const all = await this.redis.hgetall(this.#key('session', sessionId, 'files'));
    return Object.values(all)
      .map((v) => JSON.parse(v) as TrackedFile)
      .sort((a, b) => a.addedAt.localeCompare(b.addedAt) || a.fileName.localeCompare(b.fileName));
  }
}

function view(stored: StoredSession, files: TrackedFile[]): UploadSession {
  const completed = files.filter((f) => f.status === 'COMPLETED').length;
  const failed = files.filter((f) => f.status === 'FAILED').length;
  // Files announced but not sent yet (AUTHOR files are derived, not sent).
  const sent = files.filter((f) => f.fileType !== 'AUTHOR').length;
  const waiting = stored.finalized ? 0 : Math.max(0, (stored.expectedFiles ?? 0) - sent);
  const total = files.length + waiting;
  const done = completed + failed === total;
  const progress = total ? files.reduce((sum, f) => sum + f.progressPercentage, 0) / total : 0;
  const isCompleted = stored.finalized && done;
  return {
    id: stored.id,
    sessionName: stored.sessionName,
    totalFiles: total,
    completedFiles: completed,
    failedFiles: failed,
    progressPercentage: Math.round(progress * 10) / 10,
    isActive: !isCompleted,
    isCompleted,
    finalized: stored.finalized,
    createdAt: stored.createdAt,
  };
}
