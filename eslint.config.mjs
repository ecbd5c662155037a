// One lint setup for every workspace, gated in CI with zero warnings (`npm run lint`).
import tseslint from 'typescript-eslint';
import globals from 'globals';
import tsdoc from 'eslint-plugin-tsdoc';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'scratch/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The libraries' doc comments are TSDoc (shapes, units, errors as @param, @returns, @throws).
    files: ['clickhouse/src/**/*.ts', 'spreadsheet/src/**/*.ts', 'shared/src/**/*.ts'],
    plugins: { tsdoc },
    rules: { 'tsdoc/syntax': 'error' },
  },
  {
    // The ingest queue is built once, in the composition root: the rest of the api queues through IngestQueue.
    files: ['api/src/**/*.ts'],
    ignores: ['api/src/server.ts', 'api/src/files/ingest-queue.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'bullmq',
              message:
                'Queue ingest jobs through IngestQueue (api/src/files/ingest-queue.ts), built in server.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
