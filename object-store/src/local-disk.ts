import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, missingObject, type ByteRange, type ObjectStore } from './object-store.ts';

/** Objects as files under one directory (DATA_DIR): `blobs/x.csv` is `DATA_DIR/blobs/x.csv`. */
export class LocalDiskStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly #root: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  localPath(key: string): string {
    return path.join(this.#root, checkKey(key));
  }

  async putFile(key: string, filePath: string): Promise<void> {
    const target = this.localPath(key);
    if (path.resolve(filePath) === target) return;
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(filePath, target);
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await pipeline(body, createWriteStream(target));
    } catch (e) {
      await rm(target, { force: true });
      throw e;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.localPath(key);
    if ((await this.size(key)) === null) return null;
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async size(key: string): Promise<number | null> {
    return stat(this.localPath(key)).then(
      (s) => (s.isFile() ? s.size : null),
      () => null,
    );
  }

  async remove(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.localPath(key), { force: true })));
  }

  async list(prefix: string): Promise<string[]> {
    const dir = path.join(this.#root, prefix);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        path.relative(this.#root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
      )
      .filter((key) => key.startsWith(prefix));
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.localPath(from);
    const target = this.localPath(to);
    if ((await this.size(from)) === null) throw missingObject(from);
    await mkdir(path.dirname(target), { recursive: true });
    await rm(target, { force: true });
    await link(source, target).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EXDEV' || e.code === 'EPERM') return copyFile(source, target);
      throw e;
    });
  }

  async putBytes(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }

  async usage(prefix: string): Promise<{ objects: number; bytes: number }> {
    const dir = path.join(this.#root, prefix);
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    let objects = 0;
    let bytes = 0;
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      objects++;
      bytes += (await stat(path.join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
    }
    return { objects, bytes };
  }

  async withLocalFile<T>(
    key: string,
    _scratchDir: string,
    work: (filePath: string) => Promise<T>,
  ): Promise<T> {
    if ((await this.size(key)) === null) throw missingObject(key);
    return work(this.localPath(key));
  }
}
