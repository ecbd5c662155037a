import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared test fixtures (real Web of Science exports): `../shared/fixtures` beside the checkout,
 * or `SIFT_FIXTURES_DIR`. Throws, naming both, when the file is not there.
 */
export function fixture(name: string): string {
  const dir =
    process.env.SIFT_FIXTURES_DIR ?? fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    throw new Error(
      `Fixture ${name} not found in ${dir}: check out ../shared beside the repository or set SIFT_FIXTURES_DIR.`,
    );
  }
  return file;
}
