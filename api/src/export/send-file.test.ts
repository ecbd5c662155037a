import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGoneError } from '../errors.ts';
import { FileSender, SEND_PIECE_BYTES, sendFileRange } from './send-file.ts';

/** A file of random bytes over several pieces, so the two buffers are each reused. */
const dir = mkdtempSync(path.join(tmpdir(), 'sift-send-file-'));
const file = path.join(dir, 'data.bin');
const data = randomBytes(SEND_PIECE_BYTES * 3 + 12_345);

let server: Server;
let handle: (res: ServerResponse) => Promise<void>;
let handled: Promise<unknown>;
beforeAll(async () => {
  writeFileSync(file, data);
  server = createServer((_req, res) => {
    handled = handle(res).then(
      () => res.end(),
      (e: unknown) => {
        res.destroy();
        throw e;
      },
    );
    handled.catch(() => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** GET the test server; the body is read slowly (a pause after each chunk) unless `fast`. */
async function download(options: { fast?: boolean; stopAfter?: number } = {}): Promise<Buffer> {
  const { port } = server.address() as AddressInfo;
  const res: IncomingMessage = await new Promise((resolve) => get(`http://127.0.0.1:${port}/`, resolve));
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    received += chunk.length;
    if (options.stopAfter !== undefined && received >= options.stopAfter) {
      res.destroy();
      break;
    }
    if (!options.fast && chunks.length % 16 === 0) await new Promise((r) => setTimeout(r, 2));
  }
  return Buffer.concat(chunks);
}

describe('FileSender', () => {
  it('sends exactly the bytes of each range, in order, to a slow client', async () => {
    // Ranges of odd sizes, as an export sends its file while the engine writes it.
    const cuts = [0, 1, 5_000_000, 5_000_001, SEND_PIECE_BYTES * 2 + 7, data.length];
    handle = async (res) => {
      const sender = new FileSender(res, file);
      try {
        for (let i = 1; i < cuts.length; i++) await sender.send(cuts[i - 1]!, cuts[i]! - 1);
        await sender.finish();
      } finally {
        await sender.close();
      }
    };
    const body = await download();
    await handled;
    expect(body.length).toBe(data.length);
    expect(body.equals(data)).toBe(true);
  });

  it('sends one inner range of a file', async () => {
    handle = (res) => sendFileRange(res, file, 1000, SEND_PIECE_BYTES + 999);
    const body = await download({ fast: true });
    expect(body.equals(data.subarray(1000, SEND_PIECE_BYTES + 1000))).toBe(true);
  });

  it('fails when the file is shorter than the range', async () => {
    handle = (res) => sendFileRange(res, file, 0, data.length + 10);
    await download({ fast: true }).catch(() => Buffer.alloc(0));
    await expect(handled).rejects.toThrow(/ended at byte/);
  });

  it('fails when the client goes away, instead of waiting for it', async () => {
    handle = (res) => sendFileRange(res, file, 0, data.length - 1);
    await download({ stopAfter: 100_000 });
    await expect(handled).rejects.toThrow('The client closed the download');
    await expect(handled).rejects.toBeInstanceOf(ClientGoneError);
  });
});
