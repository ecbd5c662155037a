/**
 * Per-file upload retry (spec section 9): up to 3 attempts, waiting 1 s then 2 s. Only failures a
 * second try can cure are retried: the network (FETCH_ERROR) and 5xx answers (503: the processing
 * queue is briefly unreachable). A 4xx answer (wrong type, too large, unknown session) will not
 * change, a time-out after 5 minutes is not worth two more, and an unreadable 2xx body means the
 * server already took the files, so sending them again would duplicate them.
 */
import { isApiError } from '../../api/client';

/** Waits before the 2nd and 3rd attempts; attempts = length + 1. */
export const UPLOAD_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000];

export function isRetryableUploadError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 'FETCH_ERROR') return true;
  return typeof error.status === 'number' && error.status >= 500;
}

export const sleep = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

export interface RetryOptions {
  /** Waits before each further attempt (default: the spec's 1 s and 2 s). */
  delaysMs?: readonly number[];
  shouldRetry?: (error: unknown) => boolean;
  /** Injected in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each further attempt with the attempt number (2, 3, …) and the last error. */
  onRetry?: (attempt: number, error: unknown) => void;
}

/** Runs `task` until it succeeds, the error is not retryable, or the attempts are used up. */
export async function withRetry<T>(
  task: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const {
    delaysMs = UPLOAD_RETRY_DELAYS_MS,
    shouldRetry = isRetryableUploadError,
    sleep: wait = sleep,
    onRetry,
  } = options;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task(attempt);
    } catch (error) {
      const delay = delaysMs[attempt - 1];
      if (delay === undefined || !shouldRetry(error)) throw error;
      onRetry?.(attempt + 1, error);
      await wait(delay);
    }
  }
}
