import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes of every file under `dir`, subdirectories included; 0 for a directory that does not exist,
 * and a file removed while it is counted counts 0.
 */
export async function directoryBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += await stat(path.join(entry.parentPath, entry.name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return total;
}
