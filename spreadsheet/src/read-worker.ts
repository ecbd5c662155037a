/**
 * The worker thread that reads one uploaded file for `readIsolated` (isolated-read.ts): it runs
 * `readSpreadsheet` and posts its rows in batches, never more than the parent has asked for, so a
 * slow consumer holds the reader back instead of letting batches pile up in memory.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { InvalidFileError } from './errors.ts';
import { readSpreadsheet } from './read.ts';
import type { ParsedRow, ReadProgress } from './types.ts';
import type { FromReader, ReadJob } from './isolated-read.ts';

const port = parentPort!;
const job = workerData as ReadJob;
// Reading a file is background work: on Linux a thread's nice value is its own, so this lowers
// this thread's alone, and the API's requests get the cores first (ReadJob.nice).
if (job.nice) {
  try {
    setPriority(job.nice);
  } catch {
    // not allowed here (or not Linux): the reader runs at the process's priority
  }
}
let credits = job.batchesAhead;
let wake: (() => void) | null = null;
port.on('message', () => {
  credits += 1;
  wake?.();
  wake = null;
});

const post = (message: FromReader) => port.postMessage(message);
const progress: ReadProgress = { bytesRead: 0 };

async function send(rows: ParsedRow[]): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits -= 1;
  post({ type: 'rows', rows, bytesRead: progress.bytesRead });
}

try {
  let batch: ParsedRow[] = [];
  let cells = 0;
  const reader = readSpreadsheet(job.filePath, job.originalName, progress, job.format, job.encoding);
  let next = await reader.next();
  for (; !next.done; next = await reader.next()) {
    batch.push(next.value);
    cells += next.value.cells.length + 1;
    if (cells >= job.batchCells) {
      await send(batch);
      batch = [];
      cells = 0;
    }
  }
  if (batch.length) await send(batch);
  post({ type: 'end', format: next.value });
} catch (e) {
  post(
    e instanceof InvalidFileError
      ? { type: 'invalid', message: e.message, kind: e.kind }
      : { type: 'failed', message: e instanceof Error ? e.message : String(e) },
  );
}
port.close();
