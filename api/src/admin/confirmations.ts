import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FileSelection } from '@sift/clickhouse';
import { CONFIRMATION_TTL_SECONDS, type Confirmation, type ConfirmedAction } from '@sift/shared/contracts';
import { ConflictError } from '../errors.ts';

/** What a confirmation is bound to: who asked, which call on what, and the files as they were. */
interface Held {
  actorId: string;
  action: ConfirmedAction;
  target: string;
  selection: FileSelection;
}

/**
 * Confirmations of destructive admin calls, kept in Redis (every API process sees the same), each
 * a random token good once and for CONFIRMATION_TTL_SECONDS. A fixed phrase could be replayed: a
 * mass deletion sent again later deleted a file uploaded after the first, which the person never
 * confirmed.
 */
export class Confirmations {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds = CONFIRMATION_TTL_SECONDS,
  ) {}

  /**
   * A new confirmation of `action` on `target` by `actorId`, bound to `selection`.
   *
   * @returns the token and what it confirms
   */
  async issue(
    actorId: string,
    action: ConfirmedAction,
    target: string,
    selection: FileSelection,
  ): Promise<Confirmation> {
    const token = randomBytes(24).toString('base64url');
    const held: Held = { actorId, action, target, selection };
    await this.redis.set(this.#key(token), JSON.stringify(held), 'EX', this.ttlSeconds);
    const expiresAt = new Date(Date.now() + this.ttlSeconds * 1000).toISOString();
    return { token, action, target, files: selection.files, expiresAt };
  }

  /**
   * Spends `token` on `action` on `target` by `actorId` with the files now as `selection`: resolves
   * when it confirms exactly that. A token is gone once presented, whatever the answer.
   *
   * @throws ConflictError (409) for a token unknown, used or expired, for another call, target or
   *   administrator, or when the files changed since it was issued; nothing may then be changed
   */
  async spend(
    token: string,
    actorId: string,
    action: ConfirmedAction,
    target: string,
    selection: () => Promise<FileSelection>,
  ): Promise<void> {
    const raw = token ? await this.redis.getdel(this.#key(token)) : null;
    if (!raw)
      throw new ConflictError(
        'This call needs a confirmation from POST /api/admin/confirmations, used once within 5 minutes; this one is missing, used or expired. Nothing was changed.',
        'CONFIRMATION_REQUIRED',
      );
    const held = JSON.parse(raw) as Held;
    if (held.actorId !== actorId || held.action !== action || held.target !== target)
      throw new ConflictError(
        `This confirmation is for ${held.action}${held.target ? ` of ${held.target}` : ''}, not this call. Nothing was changed.`,
        'CONFIRMATION_MISMATCH',
      );
    const now = await selection();
    if (now.digest !== held.selection.digest)
      throw new ConflictError(
        `Files were added or removed since this was confirmed (${held.selection.files} then, ${now.files} now): confirm again. Nothing was changed.`,
        'SELECTION_CHANGED',
      );
  }

  #key(token: string): string {
    return `${this.prefix}:confirmation:${token}`;
  }
}
