// Builds the web app into web/dist when it is missing (first `npm start`, or `npm test` on a fresh
// clone, whose browser test serves it). Exits the process on a failed build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm run build -w web` unless `web/dist/index.html` exists. */
export function ensureWebBuild() {
  if (existsSync(`${root}web/dist/index.html`)) return;
  console.log('Building the web app (web/dist)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The web app build failed (npm run build -w web).');
}
