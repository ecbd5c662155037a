import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:containers`: the suites that run Sift against real services in containers
 * (`test/containers/*.containers.test.ts`, Testcontainers). They need a Docker engine, so `npm test`
 * leaves them out.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/containers/**/*.containers.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
