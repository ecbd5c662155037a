/**
 * The test-only ClickHouse server (test/support/clickhouse-server.ts) is a real ClickHouse HTTP
 * interface: Sift's storage migrates and works against it, errors carry ClickHouse's exception
 * codes, and data survives a restart. An upgrade of chDB that breaks the stand-in fails here first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStorage, rowWriteQueryId } from '@sift/clickhouse';
import { waitFor } from './support/wait.ts';
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

it("stops a file's INSERT still running on the server before deleting its rows", async () => {
  // A worker killed mid-load leaves its INSERT running on the server: the next attempt deletes the
  // file's rows, and the INSERT must not land them again after that delete.
  const storage = await openStorage({
    url: server!.url,
    user: 'default',
    password: '',
    database: 'orphan',
    dataDir,
  });
  try {
    const fileId = 'f-orphan';
    const orphan = storage.client
      .command({
        query_id: rowWriteQueryId(fileId),
        query: `INSERT INTO orphan.rows (file_id, sheet, row_number)
                SELECT {id:String}, 's', toUInt32(number) FROM numbers(40) WHERE sleepEachRow(0.1) = 0`,
        query_params: { id: fileId },
        clickhouse_settings: { max_block_size: '1' },
      })
      .then(
        () => 'ended',
        () => 'stopped',
      );
    await waitFor(
      async () => {
        const rs = await storage.client.query({
          query: `SELECT count() AS n FROM system.processes WHERE startsWith(query_id, 'sift-write-f-orphan-')`,
          format: 'JSONEachRow',
        });
        return Number((await rs.json<{ n: number }>())[0]?.n ?? 0);
      },
      (n) => n > 0,
      { intervalMs: 20, what: 'the INSERT to run' },
    );
    await storage.rows.deleteFiles([fileId]);
    expect(await orphan).toBe('stopped');
    expect(await storage.rows.countFile(fileId)).toBe(0);
  } finally {
    await storage.close();
  }
});
