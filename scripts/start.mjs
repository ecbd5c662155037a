// `npm start`: builds the web app on first run, bundles the server (scripts/build-server.mjs), then
// runs the all-in-one Sift process (API, ingest worker, web app, dev identity provider, embedded
// ClickHouse) on plain Node, with the options `npm start` gives it (SERVER_NODE_FLAGS in
// build-server.mjs; package.json's start script repeats them, checked by test/start.int.test.ts).
import { buildServer } from './build-server.mjs';
import { ensureWebBuild } from './ensure-web-build.mjs';

ensureWebBuild();
const server = await buildServer('api/src/main.ts', 'dist/sift.mjs');
await import(server);
