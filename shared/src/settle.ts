/** Waiting on work with a deadline, for shutdown paths that must end. */

/**
 * Resolves with true when `promise` settles (either way) within `ms`, false when time runs out first.
 *
 * @param promise - what to wait for
 * @param ms - how long, in ms
 * @returns whether it settled in time
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
