import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStorage, type Storage } from '@sift/clickhouse';

/**
 * Opens embedded ClickHouse in a fresh data directory (one database of its own) before the file's
 * tests and removes it after them. Returns the directory (for files the engine reads) and a getter
 * for the storage, valid inside tests.
 */
export function useTempStorage(name: string): { dir: string; storage: () => Storage } {
  const dir = mkdtempSync(path.join(tmpdir(), `sift-${name}-`));
  let storage: Storage | undefined;
  beforeAll(async () => {
    storage = await openStorage({
      user: 'default',
      password: '',
      database: `${name.replace(/\W/g, '_')}_${randomUUID().replaceAll('-', '')}`,
      dataDir: dir,
    });
  });
  afterAll(async () => {
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    storage: () => {
      if (!storage) throw new Error('storage is opened in beforeAll');
      return storage;
    },
  };
}
