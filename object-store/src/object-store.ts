import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of an object, both inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where Sift keeps files every process must reach: uploaded originals (`blobs/<stored name>`) and
 * kept exports (`exports/<stored name>`). Local disk under DATA_DIR for one host, or an
 * S3-compatible bucket that every API process and ingest worker shares. Keys are relative paths
 * with `/` separators and no `..`.
 */
export interface ObjectStore {
  /** `local` (DATA_DIR) or `s3`. */
  readonly kind: 'local' | 's3';
  /**
   * Where a new object may be written in place under `key` (local disk), so it needs no copy; null
   * when objects must be written elsewhere and then stored with putFile.
   */
  localPath(key: string): string | null;
  /** Stores the local file `filePath` under `key`, streamed; a no-op when it is already there. */
  putFile(key: string, filePath: string): Promise<void>;
  /**
   * Stores what `body` gives under `key` while it is read (on S3 a multipart upload of 8 MiB parts,
   * each sent once it is full); resolves once the whole object is stored, rejects (nothing stored)
   * when `body` errors or the store refuses. Stops reading `body` when it rejects.
   */
  putStream(key: string, body: Readable): Promise<void>;
  /** The object as a stream (a byte range of it when given), or null when there is none. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The object's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Removes these objects; keys without one are skipped. */
  remove(keys: string[]): Promise<void>;
  /** Keys of the objects under `prefix` (e.g. `blobs/`), in no particular order. */
  list(prefix: string): Promise<string[]>;
  /**
   * Makes `to` hold the object `from` holds (replacing what `to` held): a hard link on local disk
   * where it can, a copy inside the bucket on S3. Rejects with code `ENOENT` when `from` has none.
   */
  copy(from: string, to: string): Promise<void>;
  /** Stores `bytes` under `key` (small objects: a manifest). */
  putBytes(key: string, bytes: Uint8Array): Promise<void>;
  /** Objects under `prefix` (e.g. `blobs/`) and their bytes together. */
  usage(prefix: string): Promise<{ objects: number; bytes: number }>;
  /**
   * Runs `work` with a local file holding the object (its own file on local disk, else a copy
   * downloaded into `scratchDir` and removed afterwards); resolves or rejects as `work` does.
   * Throws an Error with code `ENOENT` when there is no such object.
   */
  withLocalFile<T>(key: string, scratchDir: string, work: (filePath: string) => Promise<T>): Promise<T>;
}

/** An Error with `code: 'ENOENT'`, as the file system gives for a missing file. */
export function missingObject(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`No stored object ${key}`), { code: 'ENOENT' });
}

/** Refuses keys that could leave the store's root (`..`, absolute paths, empty segments). */
export function checkKey(key: string): string {
  if (
    !key ||
    key.startsWith('/') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  )
    throw new Error(`Not an object key: ${JSON.stringify(key)}`);
  return key;
}
