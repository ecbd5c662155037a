/**
 * What a person is told when their file could not be ingested because of the server (not the
 * file): out of memory or out of disk space say so and what to do; anything else is the general
 * server error. The engine's errors name their kind in the message (`… (MEMORY_LIMIT_EXCEEDED)`),
 * the file system's carry `ENOSPC` or `EDQUOT`.
 */

/** The general message of a server-side failure. */
export const SERVER_ERROR_MESSAGE =
  'The file could not be processed because of a server error. Please try uploading it again.';

/** The engine ran out of the memory it may use. */
export const OUT_OF_MEMORY_MESSAGE =
  'The file could not be processed: the server ran out of memory while reading it. Try again later, or split the file into smaller files.';

/** The disk that holds the data is full. */
export const OUT_OF_SPACE_MESSAGE =
  'The file could not be processed: the server has run out of storage space. Tell your administrator, and upload the file again once space has been freed.';

/** Error of a job whose file's record never reached the replica it reads; the job is retried. */
export class RecordNotReplicatedError extends Error {}

/** The file's record never reached the ClickHouse node the worker reads (a replica behind). */
export const RECORD_UNSEEN_MESSAGE =
  'The file could not be processed: its record did not reach the database node that reads files. Tell your administrator (a ClickHouse replica may have stopped replicating), then upload the file again.';

const ENGINE_OUT_OF_MEMORY = /\b(MEMORY_LIMIT_EXCEEDED|CANNOT_ALLOCATE_MEMORY)\b|Memory limit .* exceeded/;
const ENGINE_OUT_OF_SPACE =
  /\b(NOT_ENOUGH_SPACE|CANNOT_RESERVE_SPACE)\b|No space left on device|Cannot reserve .* on disk|Not enough space/i;

/**
 * The message for a failed ingest's file, from the error of its last attempt.
 *
 * @param error - what the last attempt threw (not an InvalidFileError: those carry their own message)
 * @returns the message to show on the file and its upload session
 */
export function serverFailureMessage(error: unknown): string {
  if (error instanceof RecordNotReplicatedError) return RECORD_UNSEEN_MESSAGE;
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || ENGINE_OUT_OF_SPACE.test(e.message))
      return OUT_OF_SPACE_MESSAGE;
    if (ENGINE_OUT_OF_MEMORY.test(e.message)) return OUT_OF_MEMORY_MESSAGE;
  }
  return SERVER_ERROR_MESSAGE;
}
