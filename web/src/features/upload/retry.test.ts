import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { isRetryableUploadError, UPLOAD_RETRY_DELAYS_MS, withRetry } from './retry';

const http = (status: number) => new ApiError(status, `status ${status}`);

describe('isRetryableUploadError', () => {
  it('retries network failures and 5xx (503: queue briefly down), not 4xx', () => {
    expect(isRetryableUploadError(new ApiError('FETCH_ERROR', 'offline'))).toBe(true);
    expect(isRetryableUploadError(http(503))).toBe(true);
    expect(isRetryableUploadError(http(500))).toBe(true);
    for (const status of [400, 401, 404, 409, 413, 415, 422])
      expect(isRetryableUploadError(http(status))).toBe(false);
  });

  it('does not resend after a time-out, an unreadable answer or a non-API error', () => {
    expect(isRetryableUploadError(new ApiError('TIMEOUT_ERROR', 'slow'))).toBe(false);
    expect(isRetryableUploadError(new ApiError('PARSING_ERROR', 'bad json'))).toBe(false);
    expect(isRetryableUploadError(new Error('bug'))).toBe(false);
  });
});

describe('withRetry', () => {
  it('makes up to 3 attempts, waiting 1 s then 2 s', async () => {
    const sleep = vi.fn(async () => {});
    const task = vi.fn(async () => {
      throw http(503);
    });
    await expect(withRetry(task, { sleep })).rejects.toMatchObject({ status: 503 });
    expect(task).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls).toEqual([[1_000], [2_000]]);
    expect(UPLOAD_RETRY_DELAYS_MS).toEqual([1_000, 2_000]);
  });

  it('returns the first success', async () => {
    const sleep = vi.fn(async () => {});
    const onRetry = vi.fn();
    let calls = 0;
    const result = await withRetry(
      async (attempt) => {
        calls += 1;
        if (attempt < 2) throw new ApiError('FETCH_ERROR', 'offline');
        return 'ok';
      },
      { sleep, onRetry },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(2);
    expect(sleep.mock.calls).toEqual([[1_000]]);
    expect(onRetry).toHaveBeenCalledWith(2, expect.any(ApiError));
  });

  it('gives up at once on an error a retry cannot cure', async () => {
    const sleep = vi.fn(async () => {});
    const task = vi.fn(async () => {
      throw http(415);
    });
    await expect(withRetry(task, { sleep })).rejects.toMatchObject({ status: 415 });
    expect(task).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });
});
