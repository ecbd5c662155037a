import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { LoadContext } from './types.ts';

/**
 * Runs `fn` with an empty directory `name` under the scratch directory (what an earlier attempt
 * left there is removed first), removed afterwards whatever happens.
 */
export async function withScratchDir<T>(
  ctx: LoadContext,
  name: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = path.join(ctx.tmpDir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` with a scratch directory for RowBatchLoader's batch files, which the engine loads as
 * CSV (embedded: it reads them; a server: they are sent as the INSERT's body).
 */
export function withBatchDir<T>(ctx: LoadContext, fn: (dir: string | undefined) => Promise<T>): Promise<T> {
  return withScratchDir(ctx, `batches-${ctx.fileId}`, fn);
}
