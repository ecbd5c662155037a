import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { splitCsv } from './csv-split.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Feeds `text` in pieces of `piece` bytes, so record ends fall across buffers. */
async function split(text: string, skipRecords: number, chunkBytes = 1 << 20, piece = 3) {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) parts.push(bytes.subarray(i, i + piece));
  const sub = mkdtempSync(path.join(dir, 'c-'));
  const result = await splitCsv(Readable.from(parts), { delimiter: ',', skipRecords, dir: sub, chunkBytes });
  return { ...result, bodies: result.chunks.map((c) => readFileSync(c.path, 'utf8')) };
}

describe('splitCsv', () => {
  it('skips the leading records and the header, with CRLF split across buffers', async () => {
    const r = await split('\r\n,\r\nName,Email\r\nAda,a@x\r\nBob,b@x\r\n', 3);
    expect(r.bodies).toEqual(['Ada,a@x\r\nBob,b@x\r\n']);
    expect(r.chunks.map((c) => [c.firstRecord, c.records])).toEqual([[4, 2]]);
    expect(r).toMatchObject({ records: 5, maxFields: 2 });
  });

  it('keeps quoted delimiters, doubled quotes and line breaks inside one record', async () => {
    const r = await split('H\n"a,b",x\n"say ""hi""\nthere",,,\nlast', 1);
    expect(r.bodies.join('')).toBe('"a,b",x\n"say ""hi""\nthere",,,\nlast');
    expect(r).toMatchObject({ records: 4, maxFields: 2 });
  });

  it('counts only fields with content for the widest record', async () => {
    const r = await split('A,B\n1,2,,,\n3,4,5,\n', 1);
    expect(r.maxFields).toBe(3);
  });

  it('cuts chunks at record boundaries and numbers their first records', async () => {
    const body = Array.from({ length: 10 }, (_, i) => `row${i},"multi\nline ${i}"\n`).join('');
    const r = await split(`H1,H2\n${body}`, 1, 40, 7);
    expect(r.chunks.length).toBeGreaterThan(2);
    expect(r.bodies.join('')).toBe(body);
    for (const [i, c] of r.chunks.entries()) {
      expect(r.bodies[i]!.startsWith('row')).toBe(true);
      expect(c.firstRecord).toBe(2 + Number(/^row(\d+)/.exec(r.bodies[i]!)![1]));
    }
    expect(r.chunks.reduce((n, c) => n + c.records, 0)).toBe(10);
  });

  it('cuts a CRLF record after its LF, wherever the buffers end', async () => {
    const body = Array.from({ length: 10 }, (_, i) => `row${i},"two\r\nlines"\r\n`).join('');
    for (const piece of [1, 2, 7]) {
      const r = await split(`H1,H2\r\n${body}`, 1, 30, piece);
      expect(r.chunks.length).toBeGreaterThan(2);
      expect(r.bodies.join('')).toBe(body);
      for (const [i, b] of r.bodies.entries()) {
        expect(b.startsWith('row'), `chunk ${i} of pieces of ${piece}`).toBe(true);
        expect(b.endsWith('"\r\n')).toBe(true);
        expect(r.chunks[i]!.firstRecord).toBe(2 + Number(/^row(\d+)/.exec(b)![1]));
      }
    }
    // A bare CR ends a record too: the chunk is cut before the next byte.
    const r = await split('H\rAAAAAAAA\rBBBBBBBB\rCC', 1, 5, 4);
    expect(r.bodies).toEqual(['AAAAAAAA\r', 'BBBBBBBB\r', 'CC']);
  });

  it('ends the last record with finalRecordEnd when the input has no final line break', async () => {
    const sub = mkdtempSync(path.join(dir, 'f-'));
    const opts = { delimiter: '\t', skipRecords: 1, dir: sub, chunkBytes: 1 << 20, finalRecordEnd: '\r\n' };
    const open = await splitCsv(Readable.from([Buffer.from('A\tB\r\n1\t2')]), opts);
    expect(readFileSync(open.chunks[0]!.path, 'utf8')).toBe('1\t2\r\n');
    const closed = await splitCsv(Readable.from([Buffer.from('A\tB\r\n1\t2\r\n')]), {
      ...opts,
      dir: mkdtempSync(path.join(dir, 'g-')),
    });
    expect(readFileSync(closed.chunks[0]!.path, 'utf8')).toBe('1\t2\r\n');
  });

  it('writes nothing for a header-only file', async () => {
    const r = await split('Name,Email\n', 1);
    expect(r.chunks).toEqual([]);
    expect(r.records).toBe(1);
  });
});
