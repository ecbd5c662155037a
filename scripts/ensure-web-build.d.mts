/** Runs `npm run build -w web` unless `web/dist/index.html` exists and is newer than the sources; throws when the build fails. */
export function ensureWebBuild(): void;
