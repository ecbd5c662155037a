/**
 * `@sift/object-store`: where uploaded originals and kept exports live, for every process that
 * needs them. Local disk under DATA_DIR by default (one host); an S3-compatible bucket when
 * configured (S3_BUCKET), shared by separate API and ingest-worker processes.
 */
import { LocalDiskStore } from './local-disk.ts';
import type { ObjectStore } from './object-store.ts';
import { S3Store, type S3Options } from './s3.ts';

export { checkKey, missingObject, type ByteRange, type ObjectStore } from './object-store.ts';
export { LocalDiskStore } from './local-disk.ts';
export { S3Store, type S3Options } from './s3.ts';

/** Key of an uploaded original, by its stored name. */
export const originalKey = (storedName: string) => `blobs/${storedName}`;
/** Key of a kept export, by its stored name. */
export const exportKey = (storedName: string) => `exports/${storedName}`;

/** The store configuration names: S3 when `s3` is given, else local disk under `dataDir`. */
export function openObjectStore(options: { dataDir: string; s3: S3Options | undefined }): ObjectStore {
  return options.s3 ? new S3Store(options.s3) : new LocalDiskStore(options.dataDir);
}
