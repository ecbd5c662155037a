// `npm start`: builds the web app on first run, then runs the all-in-one Sift process (API, ingest
// worker, web app, dev identity provider, embedded ClickHouse) from the TypeScript sources.
import { register } from 'tsx/esm/api';
import { ensureWebBuild } from './ensure-web-build.mjs';

ensureWebBuild();
register();
await import('../api/src/main.ts');
