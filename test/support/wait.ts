/**
 * Polls `read` until `until` holds for its value and returns that value. The deadline only turns a
 * condition that never comes into a readable failure (naming the last value seen); it is not what a
 * test asserts, so it is generous.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  until: (value: T) => boolean,
  { timeoutMs = 90_000, intervalMs = 100, what = 'the condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `Gave up waiting for ${what} after ${timeoutMs} ms; last seen: ${JSON.stringify(value)}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
