// `npm start`: builds the web app on first run, then runs the all-in-one Sift process (API, ingest
// worker, web app, dev identity provider, embedded ClickHouse) from the TypeScript sources.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(`${root}web/dist/index.html`)) {
  console.log('Building the web app (first run)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
register();
await import('../api/src/main.ts');
