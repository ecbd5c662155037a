import { Piscina } from 'piscina';
import { InvalidFileError } from './errors.ts';
import type { Encoding } from './csv.ts';
import type { SpreadsheetFormat } from './format.ts';
import type { Inspection, LeadingRow, Outcome } from './inspect-worker.ts';
import { READ_ISOLATION, refusedUnread, type ReadIsolation } from './isolated-read.ts';

export type { Inspection, LeadingRow } from './inspect-worker.ts';

/**
 * Threads of one inspection pool. Inspections are short (a few KB to a few MB read each), so two
 * keep a burst of uploads moving on a small machine without taking every core.
 */
const INSPECT_THREADS = 2;
/** How long an idle inspection thread is kept, in ms, before it exits (idle ones never hold the process up). */
const INSPECT_IDLE_MS = 10_000;

/** A time budget as a person reads it: `20 ms`, `120 s`. */
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** One pool per heap limit (tests use small ones), made when first needed. */
const pools = new Map<number, Piscina>();

function poolFor(maxHeapMb: number): Piscina {
  let pool = pools.get(maxHeapMb);
  if (!pool) {
    pool = new Piscina({
      filename: new URL('./inspect-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: INSPECT_THREADS,
      idleTimeout: INSPECT_IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    });
    pools.set(maxHeapMb, pool);
  }
  return pool;
}

/**
 * Runs one task of inspect-worker.ts in the inspection pool, within the reading limits: a task past
 * `limits.idleTimeoutMs` (its whole time budget here) is stopped with its thread, and one past the
 * heap limit loses its thread alone; both refuse the file (InvalidFileError, kind `unsafe`).
 */
async function inspectIsolated<T>(
  name: 'inspectUpload' | 'leadingRows',
  task: { originalName: string } & Record<string, unknown>,
  limits: ReadIsolation,
): Promise<T> {
  let answer: Outcome<T>;
  try {
    answer = (await poolFor(limits.maxHeapMb).run(task, {
      name,
      signal: AbortSignal.timeout(limits.idleTimeoutMs),
    })) as Outcome<T>;
  } catch (e) {
    const error = e as Error & { code?: string };
    if (error.name === 'AbortError') {
      throw refusedUnread(
        task.originalName,
        `reading its start took longer than ${duration(limits.idleTimeoutMs)}`,
      );
    }
    if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw refusedUnread(
        task.originalName,
        `reading it needs more memory than Sift allows one file (${limits.maxHeapMb} MB)`,
      );
    }
    throw e;
  }
  if (!answer.ok) throw new InvalidFileError(answer.message, answer.kind);
  return answer.value;
}

/**
 * Inspects a stored upload off the calling thread (a worker thread of the inspection pool, with the
 * reading limits): its format from its content (validateSpreadsheet, skipped when `format` is
 * given) and, for text formats (unless `formatOnly`), its encoding and first 64 KB and, for a CSV,
 * its delimiter.
 *
 * @param filePath - the stored upload
 * @param originalName - the name the user gave it
 * @param known - the format when already found; the encoding a person chose instead of the guess;
 *   `formatOnly` when nothing but the format is wanted (no encoding guess, sniffed is null)
 * @param limits - the thread's heap (MB) and the inspection's time budget (ms)
 * @returns the format, encoding, sample and delimiter
 * @throws InvalidFileError for a file Sift does not read, or whose inspection passed the limits;
 *   Error for anything else (the stored file missing), for a retry
 */
export function inspectUpload(
  filePath: string,
  originalName: string,
  known: {
    format?: SpreadsheetFormat | undefined;
    encoding?: Encoding | undefined;
    formatOnly?: boolean | undefined;
  } = {},
  limits: ReadIsolation = READ_ISOLATION,
): Promise<Inspection> {
  return inspectIsolated('inspectUpload', { filePath, originalName, ...known }, limits);
}

/**
 * A CSV's first records with content, read off the calling thread (see inspectUpload): at most
 * `max.rows` of them, and no more once their cells hold `max.chars` characters together.
 *
 * @param filePath - the CSV
 * @param originalName - the name the user gave it
 * @param sheet - the sheet name the rows carry
 * @param encoding - the encoding a person chose instead of the guess
 * @param max - rows and characters to read at most
 * @param limits - the thread's heap (MB) and the read's time budget (ms)
 * @returns the records with their record numbers
 * @throws InvalidFileError for a cell past the cap, or a read past the limits; Error otherwise
 */
export function leadingRows(
  filePath: string,
  originalName: string,
  sheet: string,
  encoding: Encoding | undefined,
  max: { rows: number; chars: number },
  limits: ReadIsolation = READ_ISOLATION,
): Promise<LeadingRow[]> {
  return inspectIsolated(
    'leadingRows',
    { filePath, originalName, sheet, encoding, maxRows: max.rows, maxChars: max.chars },
    limits,
  );
}
