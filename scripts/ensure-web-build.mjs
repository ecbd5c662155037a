// Builds the web app into web/dist when it is missing or older than its sources (first `npm start`,
// or `npm test` on a fresh clone, whose browser test serves it). Throws on a failed build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = path.join(root, 'web');

/** Newest modification time (ms) of the files under `dir`. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Runs `npm run build -w web` unless `web/dist/index.html` exists and is newer than the sources. */
export function ensureWebBuild() {
  const built = path.join(web, 'dist', 'index.html');
  if (existsSync(built)) {
    const sources = Math.max(
      newest(path.join(web, 'src')),
      ...['index.html', 'vite.config.ts', 'package.json'].map((f) => statSync(path.join(web, f)).mtimeMs),
    );
    if (statSync(built).mtimeMs >= sources) return;
  }
  console.log('Building the web app (web/dist)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The web app build failed (npm run build -w web).');
}
