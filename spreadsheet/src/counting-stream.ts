import { createReadStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { ReadProgress } from './types.ts';

/**
 * Reads a file, adding each chunk's size to `progress.bytesRead` as it is consumed.
 *
 * @param filePath - the file to read
 * @param progress - where bytes read are counted
 * @returns the stream
 */
export function countingReadStream(filePath: string, progress: ReadProgress): Readable {
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      progress.bytesRead += chunk.length;
      cb(null, chunk);
    },
  });
  const source = createReadStream(filePath);
  source.on('error', (e) => counter.destroy(e));
  return source.pipe(counter);
}
