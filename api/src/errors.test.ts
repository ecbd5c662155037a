import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, ClientGoneError, errorHandler } from './errors.ts';

/** A real Express app on loopback whose routes fail in the ways the error middleware tells apart. */
const logged: string[] = [];
const app = express();
app.get('/gone-mid-download', (_req, res) => {
  res.write('first bytes');
  throw new ClientGoneError();
});
app.get('/broken-mid-download', (_req, res) => {
  res.write('first bytes');
  throw new Error('the engine failed');
});
app.get('/bad', () => {
  throw new BadRequestError('Please select at least one column to export', 'NO_COLUMNS');
});
app.use(errorHandler((message, detail) => logged.push(`${message}: ${String(detail)}`)));

let base = '';
let server: ReturnType<typeof app.listen>;
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

describe('errorHandler', () => {
  it('ends a download the client left without logging it', async () => {
    logged.length = 0;
    // The response is destroyed, not ended: the client sees a failed download.
    await expect(fetch(`${base}/gone-mid-download`).then((r) => r.text())).rejects.toThrow();
    expect(logged).toEqual([]);
  });

  it('logs any other failure after the headers and destroys the response', async () => {
    logged.length = 0;
    await expect(fetch(`${base}/broken-mid-download`).then((r) => r.text())).rejects.toThrow();
    expect(logged).toEqual(['Unhandled error: Error: the engine failed']);
  });

  it("answers an HttpError with its status and the user's message", async () => {
    const res = await fetch(`${base}/bad`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Please select at least one column to export',
      code: 'NO_COLUMNS',
    });
  });
});
