/** Runs `npm run build -w web` unless `web/dist/index.html` exists; throws when the build fails. */
export function ensureWebBuild(): void;
