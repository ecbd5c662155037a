import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A test fixture's path: `test/fixtures/<name>` in the repository (written by
 * `test/fixtures/make-fixtures.ts`), or `<SIFT_FIXTURES_DIR>/<name>` to run the same tests on other
 * files of the same names (e.g. real Web of Science exports).
 *
 * @param name - the fixture's file name, e.g. `wos-savedrecs-small.xls`
 * @returns the absolute path of the file
 * @throws Error naming the folder when the file is not there
 */
export function fixture(name: string): string {
  const dir = process.env.SIFT_FIXTURES_DIR ?? fileURLToPath(new URL('../fixtures/', import.meta.url));
  const file = path.join(dir, name);
  if (!existsSync(file)) {
    throw new Error(
      `Fixture ${name} not found in ${dir}: run \`npm run fixtures\` or check SIFT_FIXTURES_DIR.`,
    );
  }
  return file;
}
