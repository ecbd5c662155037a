import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { broadcastStream } from './broadcast-stream.ts';

const sink = (highWaterMark = 16) => {
  const chunks: Buffer[] = [];
  const w = new Writable({
    highWaterMark,
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk);
      setImmediate(cb); // a slow target
    },
  });
  return { w, text: () => Buffer.concat(chunks).toString() };
};

describe('broadcastStream', () => {
  it('copies every chunk to every target, waiting for the slowest, and ends them all', async () => {
    const a = sink(1);
    const b = sink(1024);
    const lines = Array.from({ length: 500 }, (_, i) => `row ${i}\n`);
    await pipeline(Readable.from(lines), broadcastStream([a.w, b.w]));
    expect(a.text()).toBe(lines.join(''));
    expect(b.text()).toBe(lines.join(''));
    expect(a.w.writableFinished && b.w.writableFinished).toBe(true);
  });

  it('leaves the targets in leaveOpen for the caller to end', async () => {
    const a = sink();
    const b = sink();
    await pipeline(Readable.from(['x\n', 'y\n']), broadcastStream([a.w, b.w], { leaveOpen: [b.w] }));
    expect(a.w.writableFinished).toBe(true);
    expect(b.w.writableEnded).toBe(false);
    expect(b.text()).toBe('x\ny\n');
  });

  it('fails when a target closes early, instead of waiting for it', async () => {
    const a = sink(1);
    const gone = new PassThrough({ highWaterMark: 1 });
    async function* endless() {
      for (let i = 0; ; i++) {
        if (i === 50) gone.destroy();
        yield `row ${i}\n`;
      }
    }
    await expect(pipeline(Readable.from(endless()), broadcastStream([a.w, gone]))).rejects.toThrow(
      /closed before|premature/i,
    );
  });
});
