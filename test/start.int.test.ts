/**
 * `npm start` (scripts/start.mjs): the server bundle it builds (scripts/build-server.mjs) starts on
 * plain Node, finds what its modules read beside their sources (the migrations, the web app's
 * build), answers, and stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../scripts/build-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start', () => {
  it("gives Node the server's options", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const flags = SERVER_NODE_FLAGS.join(' ');
    expect(pkg.scripts.start).toBe(`node ${flags} scripts/start.mjs`);
    expect(pkg.scripts.api).toBe(`RUN_INGEST_WORKER=false node ${flags} scripts/start.mjs`);
    expect(pkg.scripts.worker).toBe(`node ${flags} scripts/start-worker.mjs`);
  });

  it("gives the image's API and the compose file's ingest worker the same options", () => {
    const dockerfile = readFileSync(path.join(root, 'deploy', 'Dockerfile'), 'utf8');
    const compose = readFileSync(path.join(root, 'deploy', 'compose.yaml'), 'utf8');
    const commands = [
      /^CMD (\[.*\])$/m.exec(dockerfile)?.[1],
      /^ {4}command: (\['node'.*\])$/m.exec(compose)?.[1],
    ];
    expect(commands.map((c) => JSON.parse(String(c).replaceAll("'", '"')) as string[])).toEqual([
      ['node', ...SERVER_NODE_FLAGS, 'dist/api.mjs'],
      ['node', ...SERVER_NODE_FLAGS, 'dist/ingest-worker.mjs'],
    ]);
  });

  it('runs the bundled server: it answers, serves the web app and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
      cwd: root,
      // Port 0: any free port; no ingest worker, so no queue of another run is touched.
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', RUN_INGEST_WORKER: 'false' },
    });
    const exited = once(child, 'exit');
    let output = '';
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString();
          const m = /Sift is running at (\S+)/.exec(output);
          if (m) resolve(m[1]!);
        });
        void exited.then(([code]) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
      });
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        status: 'ready',
        clickhouse: true,
        redis: true,
        objectStore: true,
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toContain('SIGTERM received, shutting down');
  }, 60_000);
});
