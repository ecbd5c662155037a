/**
 * Structured logs (issue 36): each API request gets an id (the caller's X-Request-Id, else a new
 * one), answered in X-Request-Id, logged as one JSON line without the token, and carried into the
 * ingest job the request queued.
 */
import { Writable } from 'node:stream';
import express from 'express';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import { requestLog } from '../api/src/request-log.ts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Lou', 'Logs');
});
afterAll(async () => {
  await sift?.close();
});

it('logs a request as one JSON line with its id, and never its token', async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLog(pino({ base: { role: 'api' } }, sink)));
  app.get('/ping', (_req, res) => void res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const given = await fetch(`http://127.0.0.1:${port}/ping`, {
      headers: { 'x-request-id': 'trace-42', authorization: 'Bearer secret-token' },
      signal: AbortSignal.timeout(10_000),
    });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    // A header that is no plausible id is replaced by a new one.
    const made = await fetch(`http://127.0.0.1:${port}/ping`, {
      headers: { 'x-request-id': 'bad id\twith spaces' },
      signal: AbortSignal.timeout(10_000),
    });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  } finally {
    server.close();
  }
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({
    role: 'api',
    level: 30,
    req: { id: 'trace-42', method: 'GET', url: '/ping' },
    res: { statusCode: 200 },
  });
  expect(JSON.stringify(lines)).not.toContain('secret-token');
});

it("carries an upload's request id into its ingest job", async () => {
  const form = new FormData();
  form.append('files', new Blob(['Name\nAda\n']), 'one.csv');
  const res = await user.fetch('/file/upload-multiple', {
    method: 'POST',
    body: form,
    headers: { 'x-request-id': 'upload-7' },
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('x-request-id')).toBe('upload-7');
  const [file] = ((await res.json()) as { files: { id: string }[] }).files;
  const queue = new Queue(INGEST_QUEUE, {
    connection: { url: sift.config.redisUrl },
    prefix: sift.config.queuePrefix,
  });
  try {
    expect((await queue.getJob(file!.id))?.data).toMatchObject({ fileId: file!.id, requestId: 'upload-7' });
  } finally {
    await queue.close();
  }
});
