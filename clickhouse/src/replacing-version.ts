let last = 0;

/**
 * A strictly increasing version for ReplacingMergeTree rows written by this process: microseconds
 * since the epoch, bumped by one when two writes fall in the same microsecond.
 *
 * @returns the next version, microseconds since the epoch
 */
export function nextVersion(): number {
  const now = Date.now() * 1000;
  last = now > last ? now : last + 1;
  return last;
}
