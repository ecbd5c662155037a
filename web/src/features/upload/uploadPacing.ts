/**
 * Client upload pacing (spec section 9): one file at a time, in groups of `batchSize` (the server's
 * `GET /api/parallel/optimal-batch-size`, 2 by default), 1 s between the files of a group and 5 s
 * between groups. The pauses let the server ingest earlier files while later ones are still
 * arriving, so one large selection does not flood the ingest queue.
 */
import type { UploadPacing } from '@sift/shared/contracts';

/** Pause between two groups. */
export const GROUP_PAUSE_MS = 5_000;
/** Pause between two files of one group. */
export const REQUEST_PAUSE_MS = 1_000;

/** Used when the server's pacing cannot be read: the spec's groups of 2 and the API's limits. */
export const DEFAULT_UPLOAD_PACING: UploadPacing = {
  batchSize: 2,
  maxFilesPerRequest: 25,
  maxFileSizeBytes: 500 * 1024 * 1024,
};

/** Longest session name the API accepts (`createUploadSessionSchema`). */
export const MAX_SESSION_NAME_LENGTH = 200;

/** One upload request of a plan. */
export interface UploadStep<F> {
  /** The files of this request, in selection order. */
  files: F[];
  /** Zero-based group number. */
  group: number;
  /** How long to wait before sending this request, in ms. */
  pauseBeforeMs: number;
}

/** A whole number at least 1, else `fallback` (guards against a malformed pacing answer). */
function positiveInt(value: number, fallback: number): number {
  return Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/**
 * The requests that upload `files`: one file each, in groups of `batchSize`; each file after the
 * first waits REQUEST_PAUSE_MS, or GROUP_PAUSE_MS when it starts a group.
 */
export function planUploadSteps<F>(
  files: readonly F[],
  pacing: Pick<UploadPacing, 'batchSize'>,
): UploadStep<F>[] {
  const groupSize = positiveInt(pacing.batchSize, DEFAULT_UPLOAD_PACING.batchSize);
  return files.map((file, i) => {
    const group = Math.floor(i / groupSize);
    const pauseBeforeMs = i === 0 ? 0 : i % groupSize === 0 ? GROUP_PAUSE_MS : REQUEST_PAUSE_MS;
    return { files: [file], group, pauseBeforeMs };
  });
}

/**
 * The name of the upload session of a selection: the first file's name, and "+N more" for the
 * others; shortened with an ellipsis to what the API accepts.
 */
export function uploadSessionName(fileNames: readonly string[]): string {
  const [first] = fileNames;
  if (first === undefined) return 'Upload';
  const suffix = fileNames.length > 1 ? ` +${fileNames.length - 1} more` : '';
  const room = MAX_SESSION_NAME_LENGTH - suffix.length;
  const name = first.trim() || 'Upload';
  return (name.length > room ? `${name.slice(0, room - 1)}…` : name) + suffix;
}
