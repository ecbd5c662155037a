// Vitest global setup: the browser test serves the built web app, so build it once if missing.
import { ensureWebBuild } from '../scripts/ensure-web-build.mjs';

export default function setup(): void {
  ensureWebBuild();
}
