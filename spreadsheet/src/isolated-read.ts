import { Worker } from 'node:worker_threads';
import { InvalidFileError, type InvalidFileKind } from './errors.ts';
import type { SpreadsheetFormat } from './format.ts';
import type { ParsedRow, ReadProgress } from './types.ts';

/** How much one file's read may cost before it is stopped and the file refused. */
export interface ReadIsolation {
  /** Heap the reading thread may use, in MB (V8 `maxOldGenerationSizeMb`); past it the file fails. */
  maxHeapMb: number;
  /** Longest wait for the reader's next rows, in ms; a reader silent that long is stopped. */
  idleTimeoutMs: number;
}

/** Defaults of ReadIsolation (PARSE_MAX_HEAP_MB, PARSE_IDLE_TIMEOUT_MS). */
export const READ_ISOLATION: ReadIsolation = { maxHeapMb: 512, idleTimeoutMs: 120_000 };

/** What the parent gives the reading thread (`workerData`). */
export interface ReadJob {
  filePath: string;
  originalName: string;
  format: SpreadsheetFormat | undefined;
  /** For text formats, the encoding a person chose instead of the guess. */
  encoding: string | undefined;
  /** Cells (plus one a row) that make a batch. */
  batchCells: number;
  /** Batches the reader may post before the parent asks for more. */
  batchesAhead: number;
  /** The reading thread's Linux nice value (0: the process's own). */
  nice: number;
}

/**
 * The nice value of reading threads: reading a file is background work, and on a machine with
 * few cores the API's requests (searches while an xlsx ingests) should get them first. An idle
 * machine reads as fast at any nice value.
 */
export const READER_NICE = 10;

/** What the reading thread posts to the parent. */
export type FromReader =
  | { type: 'rows'; rows: ParsedRow[]; bytesRead: number }
  | { type: 'end'; format: SpreadsheetFormat }
  | { type: 'invalid'; message: string; kind: InvalidFileKind }
  | { type: 'failed'; message: string };

/**
 * The error of a file whose reading was stopped in its thread (memory, time, a crash).
 *
 * @param originalName - the name the user gave the file
 * @param why - what stopped it, completing '"name" could not be read: …'
 * @returns InvalidFileError, kind `unsafe`, saying what to do
 */
export function refusedUnread(originalName: string, why: string): InvalidFileError {
  return new InvalidFileError(
    `"${originalName}" could not be read: ${why}. Check that it opens in Excel, save it again (or split it into smaller files) and re-upload it.`,
    'unsafe',
  );
}

const READER_URL = new URL('./read-worker.ts', import.meta.url);

/**
 * Reads every row of an uploaded file like `readSpreadsheet`, but in a worker thread of its own with
 * a bounded heap: a file whose reading crashes, exhausts that heap or stops answering ends here as
 * InvalidFileError (kind `unsafe`) while the process and every other file carry on. Other errors
 * (the stored file missing, a read error) are thrown as plain Errors, for a retry. Rows arrive in
 * batches read ahead of the consumer, at most `batchesAhead` of them. Returns the file's format.
 *
 * @param filePath - the stored upload
 * @param originalName - the name the user gave it
 * @param progress - where bytes read are counted
 * @param format - the format, when already known
 * @param limits - the worker thread's heap (MB) and idle timeout (ms)
 * @param encoding - for text formats, the encoding a person chose instead of the guess
 * @returns the rows, then the format
 * @throws InvalidFileError for a file that fails its reader; Error for anything else
 */
export async function* readIsolated(
  filePath: string,
  originalName: string,
  progress: ReadProgress = { bytesRead: 0 },
  format?: SpreadsheetFormat,
  limits: ReadIsolation = READ_ISOLATION,
  encoding?: string,
): AsyncGenerator<ParsedRow, SpreadsheetFormat> {
  const job: ReadJob = {
    filePath,
    originalName,
    format,
    encoding,
    batchCells: 32_768,
    batchesAhead: 2,
    nice: READER_NICE,
  };
  const worker = new Worker(READER_URL, {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
  });
  const inbox: FromReader[] = [];
  let stopped: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const refuse = (why: string) => refusedUnread(originalName, why);
  worker.on('message', (m: FromReader) => {
    inbox.push(m);
    notify();
  });
  worker.on('error', (e: Error & { code?: string }) => {
    stopped ??=
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? refuse(`reading it needs more memory than Sift allows one file (${limits.maxHeapMb} MB)`)
        : refuse(`its reader stopped (${e.message})`);
    notify();
  });
  worker.on('exit', () => {
    stopped ??= refuse('its reader stopped before the end of the file');
    notify();
  });

  /** The reader's next message; throws when it stopped or stayed silent past the idle timeout. */
  const receive = async (): Promise<FromReader> => {
    for (;;) {
      const m = inbox.shift();
      if (m) return m;
      if (stopped) throw stopped;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(() => {
          stopped ??= refuse(
            `reading it took longer than ${Math.round(limits.idleTimeoutMs / 1000)} s without progress`,
          );
          resolve();
        }, limits.idleTimeoutMs);
      });
      clearTimeout(timer);
    }
  };

  try {
    for (;;) {
      const m = await receive();
      switch (m.type) {
        case 'rows':
          progress.bytesRead = m.bytesRead;
          worker.postMessage(1); // the reader may read one batch more while these are loaded
          yield* m.rows;
          break;
        case 'end':
          return m.format;
        case 'invalid':
          throw new InvalidFileError(m.message, m.kind);
        case 'failed':
          throw new Error(m.message);
      }
    }
  } finally {
    worker.removeAllListeners('exit');
    // Not awaited: a reader stuck in a file system call ends only once that call returns.
    void worker.terminate();
  }
}
