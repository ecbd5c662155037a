import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** Every workspace of package.json, so a new one's tests are never left out. */
const workspaces = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    workspaces: string[];
  }
).workspaces;

/**
 * One test command for every workspace (`npm test`): unit tests beside the code (`*.test.ts`),
 * integration tests against real Redis and chDB (`*.int.test.ts`), browser tests in real Chromium
 * (`test/e2e/*.e2e.test.ts`). Each test file runs in its own process, because chDB allows one data
 * directory per process.
 */
export default defineConfig({
  test: {
    include: [`{${[...workspaces, 'test'].join(',')}}/**/*.test.{ts,tsx}`],
    // Suites on containers need a Docker engine: `npm run test:containers` (vitest.containers.config.ts).
    exclude: ['**/node_modules/**', '**/dist/**', 'test/containers/**'],
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
