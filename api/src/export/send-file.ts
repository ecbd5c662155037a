import { open, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { ClientGoneError } from '../errors.ts';

/**
 * Bytes read from a file and written to a response at a time: large pieces mean few writes to the
 * socket, and a faster download (docs/benchmarks.md, "Sending a kept export").
 */
export const SEND_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * Writes `chunk` to `res`; resolves once the response has handed it on (the chunk may then be
 * reused). Rejects with a ClientGoneError if the client goes away first: the response closes, or the
 * write fails (a reset or broken connection: `ECONNRESET`, `EPIPE`, its error as the cause).
 */
function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  if (res.destroyed) return Promise.reject(new ClientGoneError());
  return new Promise<void>((resolve, reject) => {
    const onClose = () => reject(new ClientGoneError());
    res.once('close', onClose);
    res.write(chunk, (error) => {
      res.off('close', onClose);
      if (!error) resolve();
      else reject(new ClientGoneError(error));
    });
  });
}

/**
 * Sends ranges of one file to one response, leaving the response open: {@link FileSender.send}
 * writes bytes `start`–`end` (inclusive, byte offsets), as often as called (an export sends each
 * new stretch of its growing file); {@link FileSender.finish} waits until the response has taken
 * every byte and closes the file; {@link FileSender.close} only closes it (after a failure).
 *
 * Memory is bounded and reused: two buffers of {@link SEND_PIECE_BYTES} for the whole response, one
 * being filled from the file while the other is written; a buffer is read into again only once the
 * response has handed it on (its write callback), which is also the backpressure. Reading through
 * `createReadStream` instead allocates a new buffer per read; those are freed only by a later
 * garbage collection, and glibc serves them from its heap once the first has been freed, so the
 * API's resident memory grew over a long export (docs/benchmarks.md).
 */
export class FileSender {
  readonly #buffers = [Buffer.allocUnsafeSlow(SEND_PIECE_BYTES), Buffer.allocUnsafeSlow(SEND_PIECE_BYTES)];
  readonly #sending: (Promise<void> | undefined)[] = [undefined, undefined];
  #next = 0;
  #handle: FileHandle | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly file: string,
  ) {}

  /**
   * Writes bytes `start`–`end` of the file; resolves once they are read and queued on the response
   * (the last piece or two may still be on their way: see finish). Rejects if the file ends before
   * `end`, the response fails or the client goes away (the caller then destroys the response).
   */
  async send(start: number, end: number): Promise<void> {
    this.#handle ??= await open(this.file, 'r');
    let position = start;
    while (position <= end) {
      const i = this.#next;
      this.#next ^= 1;
      await this.#sending[i]; // this buffer's last write has been handed on
      const buffer = this.#buffers[i]!;
      const length = Math.min(buffer.length, end - position + 1);
      const { bytesRead } = await this.#handle.read(buffer, 0, length, position);
      if (bytesRead === 0) throw new Error(`${this.file} ended at byte ${position}, before byte ${end}`);
      const pending = write(this.res, buffer.subarray(0, bytesRead));
      pending.catch(() => {}); // awaited when its buffer comes round, or in finish
      this.#sending[i] = pending;
      position += bytesRead;
    }
  }

  /** Resolves once the response has handed on every byte sent, then closes the file; rejects as send. */
  async finish(): Promise<void> {
    try {
      await Promise.all(this.#sending);
    } finally {
      await this.close();
    }
  }

  /**
   * Closes the file (reads are over when send returns; writes still under way hold only the
   * buffers, so a client that has stopped reading does not keep this waiting).
   */
  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }
}

/** Sends bytes `start`–`end` of `file` to `res` (see {@link FileSender}); leaves `res` open. */
export async function sendFileRange(
  res: ServerResponse,
  file: string,
  start: number,
  end: number,
): Promise<void> {
  const sender = new FileSender(res, file);
  try {
    await sender.send(start, end);
    await sender.finish();
  } finally {
    await sender.close();
  }
}
