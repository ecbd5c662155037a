/**
 * The client's circuit breaker and retry queue for uploads (spec section 9). A request that still
 * fails after its own retries with a failure a later try may cure goes to a retry queue, sent again
 * (3 more attempts) after the other groups. Consecutive failures slow the run down: 2 s more between
 * groups for each, and after 5 in a row uploads pause for 10 s before the next request.
 */

/** Consecutive failed requests that open the breaker. */
export const BREAKER_THRESHOLD = 5;
/** How long an open breaker pauses uploads. */
export const BREAKER_PAUSE_MS = 10_000;
/** Extra pause between groups per recent (consecutive) failure. */
export const FAILURE_BACKOFF_MS = 2_000;
/** Waits before the 2nd and 3rd attempts of a request from the retry queue (3 attempts in all). */
export const RETRY_QUEUE_DELAYS_MS: readonly number[] = [1_000, 2_000];

/** Counts consecutive failed requests and says how long to wait before the next one. */
export class UploadBreaker {
  #consecutiveFailures = 0;

  get consecutiveFailures(): number {
    return this.#consecutiveFailures;
  }

  recordSuccess(): void {
    this.#consecutiveFailures = 0;
  }

  recordFailure(): void {
    this.#consecutiveFailures += 1;
  }

  /**
   * Extra wait before the next request, in ms: the breaker's pause when it is open (it then closes
   * again, half-open: the next failure counts from zero), else 2 s per recent failure before a new
   * group (`groupStart`), else nothing.
   */
  pauseBeforeNext(groupStart: boolean): number {
    if (this.#consecutiveFailures >= BREAKER_THRESHOLD) {
      this.#consecutiveFailures = 0;
      return BREAKER_PAUSE_MS;
    }
    return groupStart ? this.#consecutiveFailures * FAILURE_BACKOFF_MS : 0;
  }
}
