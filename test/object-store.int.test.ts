/**
 * Both object stores keep the same contract: byte-exact round trips (a multipart upload included),
 * ranges, sizes, removal, usage, and local files for readers. S3 runs against a real S3-compatible
 * server (s3rver).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStore, S3Store, type ObjectStore } from '@sift/object-store';
import { startTestS3, type TestS3 } from './support/s3.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-objects-'));
let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3('objects', 'sift/');
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  expect(stream).not.toBeNull();
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `content` in chunks of 64 KiB, as a request body arrives. */
function* chunksOf(content: Buffer): Generator<Buffer> {
  for (let at = 0; at < content.length; at += 65_536) yield content.subarray(at, at + 65_536);
}

/** A local file of `bytes` random bytes, and those bytes. */
function localFile(name: string, bytes: number): { file: string; content: Buffer } {
  const content = randomBytes(bytes);
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return { file, content };
}

const stores: [string, () => ObjectStore][] = [
  ['local disk', () => new LocalDiskStore(path.join(dir, 'data'))],
  ['S3', () => new S3Store(s3.options)],
];

describe.each(stores)('%s', (name, open) => {
  const slug = name.replace(/\W/g, '');

  it('keeps a file byte for byte, large enough for a multipart upload', async () => {
    const store = open();
    const { file, content } = localFile(`${slug}-big.bin`, 12 * 2 ** 20 + 12_345);
    await store.putFile(`blobs/${slug}-big.bin`, file);
    expect(await store.size(`blobs/${slug}-big.bin`)).toBe(content.length);
    expect((await bytesOf(await store.read(`blobs/${slug}-big.bin`))).equals(content)).toBe(true);
    const range = await bytesOf(await store.read(`blobs/${slug}-big.bin`, { start: 1000, end: 1999 }));
    expect(range.equals(content.subarray(1000, 2000))).toBe(true);
  });

  it('keeps a stream byte for byte while it is read, and stores nothing of a stream that fails', async () => {
    const store = open();
    const content = randomBytes(9 * 2 ** 20 + 777);
    await store.putStream(`blobs/${slug}-stream.bin`, Readable.from(chunksOf(content)));
    expect((await bytesOf(await store.read(`blobs/${slug}-stream.bin`))).equals(content)).toBe(true);
    // A body that errors after a whole part: the store rejects and keeps nothing under the key.
    async function* failing() {
      yield* chunksOf(content);
      throw new Error('the client went away');
    }
    await expect(store.putStream(`blobs/${slug}-broken.bin`, Readable.from(failing()))).rejects.toThrow();
    expect(await store.size(`blobs/${slug}-broken.bin`)).toBeNull();
  });

  it('lists keys under a prefix, copies objects over others, and stores small ones from bytes', async () => {
    const store = open();
    const base = `snapshots/${slug}-list`;
    await store.putBytes(`${base}/manifest.json`, Buffer.from('{"a":1}'));
    const { file, content } = localFile(`${slug}-copied.bin`, 70_000);
    await store.putFile(`${base}/blobs/one.bin`, file);
    await store.putBytes(`${base}/blobs/two.bin`, Buffer.from('old'));
    await store.copy(`${base}/blobs/one.bin`, `${base}/blobs/two.bin`);
    await store.copy(`${base}/blobs/one.bin`, `${base}/copies/one copy.bin`);
    expect((await store.list(`${base}/`)).sort()).toEqual(
      ['blobs/one.bin', 'blobs/two.bin', 'copies/one copy.bin', 'manifest.json'].map((k) => `${base}/${k}`),
    );
    expect((await store.list(`${base}/blobs/`)).sort()).toEqual([
      `${base}/blobs/one.bin`,
      `${base}/blobs/two.bin`,
    ]);
    expect(await store.list(`${base}/none/`)).toEqual([]);
    for (const key of [`${base}/blobs/two.bin`, `${base}/copies/one copy.bin`]) {
      expect((await bytesOf(await store.read(key))).equals(content)).toBe(true);
    }
    // The copy is its own object: removing the source leaves it.
    await store.remove([`${base}/blobs/one.bin`]);
    expect(await store.size(`${base}/copies/one copy.bin`)).toBe(content.length);
    expect((await bytesOf(await store.read(`${base}/manifest.json`))).toString()).toBe('{"a":1}');
    await expect(store.copy(`${base}/blobs/none.bin`, `${base}/x.bin`)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('answers null for a missing object and removes what it is asked to', async () => {
    const store = open();
    expect(await store.read(`exports/${slug}-none.csv`)).toBeNull();
    expect(await store.size(`exports/${slug}-none.csv`)).toBeNull();
    const { file } = localFile(`${slug}-gone.csv`, 10);
    await store.putFile(`exports/${slug}-gone.csv`, file);
    await store.remove([`exports/${slug}-gone.csv`, `exports/${slug}-never.csv`]);
    expect(await store.size(`exports/${slug}-gone.csv`)).toBeNull();
  });

  it('counts the objects and bytes under a prefix', async () => {
    const store = open();
    for (const [i, bytes] of [100, 250].entries()) {
      const { file } = localFile(`${slug}-u${i}`, bytes);
      await store.putFile(`usage-${slug}/u${i}`, file);
    }
    expect(await store.usage(`usage-${slug}/`)).toEqual({ objects: 2, bytes: 350 });
  });

  it('lends a local file for a reader, and says ENOENT for a missing object', async () => {
    const store = open();
    const { file, content } = localFile(`${slug}-read.xlsx`, 5000);
    await store.putFile(`blobs/${slug}-read.xlsx`, file);
    const scratch = path.join(dir, `scratch-${slug}`);
    const read = await store.withLocalFile(`blobs/${slug}-read.xlsx`, scratch, async (local) =>
      readFileSync(local),
    );
    expect(read.equals(content)).toBe(true);
    await expect(store.withLocalFile(`blobs/${slug}-none`, scratch, async () => 1)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('refuses keys that would leave the store', async () => {
    const store = open();
    for (const key of ['../x', '/abs', 'blobs//x', 'blobs/../../x']) {
      await expect(store.size(key)).rejects.toThrow('Not an object key');
    }
  });
});
