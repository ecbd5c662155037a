import { existsSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { LocalDiskStore } from '@sift/object-store';

/**
 * An object store whose originals (`blobs/<name>`) are the files directly in `dir`, for tests that
 * write an original themselves and ingest it.
 */
export function originalsIn(dir: string): LocalDiskStore {
  const blobs = path.join(dir, 'blobs');
  if (!existsSync(blobs)) symlinkSync('.', blobs);
  return new LocalDiskStore(dir);
}
