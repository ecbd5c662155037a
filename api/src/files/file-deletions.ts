import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FileDeletion } from '@sift/shared/contracts';
import type { FilesService } from './files.service.ts';

/** Files deleted in one step of a deletion (one records write, one rows deletion). */
export const DELETION_STEP_FILES = 100;
/** How long a deletion's state is kept after it starts, in seconds. */
const DELETION_TTL_SECONDS = 24 * 3600;

interface Stored extends FileDeletion {
  ownerId: string;
}

/**
 * Deletions of several files run by the server (`POST /api/file/deletions`): each runs to the end in
 * this process whatever the browser does, DELETION_STEP_FILES files a step, and its state is kept
 * in Redis for a day so any API process can answer how it goes. A step that fails leaves its files
 * as they were, named in `failed`; the next steps go on.
 */
export class FileDeletions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly files: FilesService,
    private readonly log: (message: string, detail?: unknown) => void,
  ) {}

  /**
   * Starts deleting the owner's files `ids` (duplicates counted once).
   *
   * @returns the deletion as it starts
   * @throws when Redis does not answer (nothing is deleted)
   */
  async start(ownerId: string, ids: string[]): Promise<FileDeletion> {
    const unique = [...new Set(ids)];
    const deletion: Stored = {
      ownerId,
      id: randomUUID(),
      total: unique.length,
      deleted: 0,
      missing: 0,
      failed: [],
      done: false,
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    await this.#save(deletion);
    void this.#run(deletion, unique);
    return publicOf(deletion);
  }

  /** One of the owner's deletions, or null (unknown, expired or another account's). */
  async get(ownerId: string, id: string): Promise<FileDeletion | null> {
    const raw = await this.redis.get(this.#key(id));
    const stored = raw ? (JSON.parse(raw) as Stored) : null;
    return stored && stored.ownerId === ownerId ? publicOf(stored) : null;
  }

  async #run(deletion: Stored, ids: string[]): Promise<void> {
    for (let at = 0; at < ids.length; at += DELETION_STEP_FILES) {
      const step = ids.slice(at, at + DELETION_STEP_FILES);
      try {
        const { deleted, missing } = await this.files.deleteMany(deletion.ownerId, step);
        deletion.deleted += deleted;
        deletion.missing += missing;
      } catch (e) {
        this.log('A step of a file deletion failed', e);
        const error = 'The file could not be deleted. Please try again.';
        deletion.failed.push(...step.map((fileId) => ({ fileId, error })));
      }
      if (at + DELETION_STEP_FILES >= ids.length) {
        deletion.done = true;
        deletion.finishedAt = new Date().toISOString();
      }
      await this.#save(deletion).catch((e: unknown) => this.log('Could not record a file deletion', e));
    }
  }

  #save(deletion: Stored): Promise<unknown> {
    return this.redis.set(this.#key(deletion.id), JSON.stringify(deletion), 'EX', DELETION_TTL_SECONDS);
  }

  #key(id: string): string {
    return `${this.prefix}:file-deletion:${id}`;
  }
}

function publicOf({ ownerId: _, ...deletion }: Stored): FileDeletion {
  return deletion;
}
