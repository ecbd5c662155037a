/**
 * Start-up: from the moment the port is open until the app is ready, every request is answered at
 * once (503 STARTING, with Retry-After) instead of being held unanswered; then /api/health answers
 * 200. Sift runs in a child process, polled from the moment it is spawned.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { freePort } from './support/sift.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-startup-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('answers every request while it starts, then reports healthy', async () => {
  const port = await freePort();
  const id = randomUUID().replaceAll('-', '');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/sift-process.ts',
      JSON.stringify({
        port,
        dataDir,
        clickhouseDatabase: `startup_${id}`,
        queuePrefix: `sift-startup-${id}`,
        webDir: undefined,
      }),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let ready = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('READY ')) ready = true;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const answers: number[] = [];
    // Until the process says it is ready, and once more after: each request must be answered
    // (a request held unanswered aborts at its deadline and fails the test).
    for (let last = false; !last;) {
      last = ready;
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(10_000),
      }).catch((e: Error) => {
        if (e.name === 'TimeoutError') throw new Error('A request during start-up was never answered');
        return null; // the port is not open yet
      });
      if (res) {
        answers.push(res.status);
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toBe('1');
          expect(await res.json()).toEqual({
            error: 'Sift is starting. Please try again in a moment.',
            code: 'STARTING',
          });
        } else await res.body?.cancel();
      }
      if (child.exitCode !== null) throw new Error(`Sift exited early (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(answers.every((s) => s === 503 || s === 200)).toBe(true);
    expect(answers.at(-1)).toBe(200);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
