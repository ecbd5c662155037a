/**
 * The test-only ClickHouse server (test/support/clickhouse-server.ts) is a real ClickHouse HTTP
 * interface: Sift's storage migrates and works against it, errors carry ClickHouse's exception
 * codes, and data survives a restart. An upgrade of chDB that breaks the stand-in fails here first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStorage } from '@sift/clickhouse';
import { startTestClickHouse, type TestClickHouse } from './support/clickhouse-server.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-clickhouse-smoke-'));
let server: TestClickHouse | null = null;
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const account = {
  id: 'a1',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  active: true,
  onboarded: true,
  createdAt: '2026-11-25T10:00:00.000Z',
};

it('answers as a ClickHouse server: version, headers, exception codes, query parameters', async () => {
  server = await startTestClickHouse({ dataDir });
  const version = await fetch(`${server.url}/?query=SELECT%20version()`, {
    signal: AbortSignal.timeout(10_000),
  });
  expect(await version.text()).toMatch(/^26\.\d+/);
  expect(version.headers.get('x-clickhouse-summary')).toContain('read_rows');

  const bad = await fetch(`${server.url}/?query=SELECT%20no_such_column`, {
    signal: AbortSignal.timeout(10_000),
  });
  expect(bad.status).toBe(404);
  expect(bad.headers.get('x-clickhouse-exception-code')).toBe('47');
  await bad.body?.cancel();

  const param = await fetch(`${server.url}/?query=SELECT%20%7Bx:UInt8%7D%20*%202&param_x=21`, {
    signal: AbortSignal.timeout(10_000),
  });
  expect((await param.text()).trim()).toBe('42');
});

it("runs Sift's migrations and repositories, and keeps the data across a restart", async () => {
  const storage = await openStorage({
    url: server!.url,
    user: 'default',
    password: '',
    database: 'smoke',
    dataDir,
  });
  expect(storage.embedded).toBe(false);
  await storage.accounts.save(account);
  expect(await storage.accounts.get('a1')).toEqual(account);
  await storage.close();

  await server!.stop();
  server = await startTestClickHouse({ dataDir });
  const again = await openStorage({
    url: server.url,
    user: 'default',
    password: '',
    database: 'smoke',
    dataDir,
  });
  expect(await again.accounts.get('a1')).toEqual(account);
  await again.close();
});
