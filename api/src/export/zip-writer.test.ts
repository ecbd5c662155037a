import { PassThrough, Writable } from 'node:stream';
import JSZip from 'jszip';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { ZipStreamWriter } from './zip-writer.ts';

/** Everything written to a stream, once it has finished. */
function collected(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark: 16 * 1024, // small, so the writer has to wait for it
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      setImmediate(done);
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

/** The entries yauzl (strict about the end records and ZIP64 fields) finds, with their sizes. */
async function yauzlEntries(bytes: Buffer): Promise<[string, number][]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: false }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  const entries: [string, number][] = [];
  zip.on('entry', (e: yauzl.Entry) => entries.push([e.fileName, e.uncompressedSize]));
  await new Promise((resolve, reject) => zip.on('end', resolve).on('error', reject));
  return entries;
}

/** Text that deflates to many pieces: ~3 MB of varied lines. */
const bigText = Array.from(
  { length: 60_000 },
  (_, i) => `<row r="${i}">${(i * 7919).toString(36)} ${'ü'.repeat(i % 13)}</row>\n`,
).join('');

async function archive(zip64Limit?: number): Promise<Buffer> {
  const { out, bytes } = collected();
  const zip = new ZipStreamWriter(out, { level: 1, chunkBytes: 8 * 1024, zip64Limit });
  await zip.addBuffer('small.xml', '<a>Grüße</a>');
  await zip.startEntry('dir/große Datei.xml');
  for (let at = 0; at < bigText.length; at += 50_000) await zip.write(bigText.slice(at, at + 50_000));
  await zip.endEntry();
  await zip.addBuffer('empty.txt', Buffer.alloc(0));
  await zip.finish();
  return bytes();
}

describe('ZipStreamWriter', () => {
  for (const [label, limit] of [
    ['classic records', undefined],
    ['ZIP64 records for every size and offset', 0],
  ] as const) {
    it(`writes an archive a zip reader opens with every CRC-32 right (${label})`, async () => {
      const bytes = await archive(limit);
      const zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
      expect(Object.keys(zip.files)).toEqual(['small.xml', 'dir/große Datei.xml', 'empty.txt']);
      expect(await zip.file('small.xml')!.async('string')).toBe('<a>Grüße</a>');
      expect(await zip.file('dir/große Datei.xml')!.async('string')).toBe(bigText);
      expect(await zip.file('empty.txt')!.async('string')).toBe('');
      // Deflated: much smaller than the text.
      expect(bytes.length).toBeLessThan(Buffer.byteLength(bigText) / 2);
      expect(await yauzlEntries(bytes)).toEqual([
        ['small.xml', Buffer.byteLength('<a>Grüße</a>')],
        ['dir/große Datei.xml', Buffer.byteLength(bigText)],
        ['empty.txt', 0],
      ]);
      const zip64End = bytes.includes(Buffer.from([0x50, 0x4b, 6, 6]));
      expect(zip64End).toBe(limit === 0);
    });
  }

  it('rejects the pending write with the error of an output that fails, and every call after', async () => {
    const out = new PassThrough({ highWaterMark: 1024 }); // never read: fills at once
    const zip = new ZipStreamWriter(out, { level: 1, chunkBytes: 1024 });
    await zip.startEntry('sheet.xml');
    const writing = (async () => {
      for (;;) await zip.write(bigText);
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    out.destroy(new Error('the client went away'));
    await expect(writing).rejects.toThrow('the client went away');
    await expect(zip.endEntry()).rejects.toThrow('the client went away');
    await expect(zip.finish()).rejects.toThrow('the client went away');
  });
});
