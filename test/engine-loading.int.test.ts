/**
 * chDB is loaded only for the embedded engine (openClickHouse in clickhouse/src/client.ts): a
 * process working against a ClickHouse server (the scale-out API and ingest workers) does not map
 * its 540 MB library. Each case runs in a fresh Node process, since this test process has the
 * engine loaded by other tests.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-loading-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function engineLoaded(mode: 'server' | 'embedded'): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'test/support/engine-loaded.ts', mode, dataDir],
    { cwd: root },
  );
  return stdout.trim();
}

describe('loading the embedded engine', () => {
  it('does not load chDB for a client of a ClickHouse server', async () => {
    expect(await engineLoaded('server')).toBe('NOT LOADED');
  }, 60_000);

  it('loads chDB for the embedded engine', async () => {
    expect(await engineLoaded('embedded')).toBe('LOADED');
  }, 60_000);
});
