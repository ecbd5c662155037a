/**
 * One selection's upload as one upload session: read the server's pacing, create the session, send
 * the files in paced batches (each request retried per the spec's policy, then from a retry queue,
 * slowed down by a circuit breaker: see uploadBreaker.ts), then finalize it so the session can
 * complete. The HTTP calls are injected, so the flow is testable without a browser.
 */
import type {
  FileRecord,
  UploadMultipleResponse,
  UploadPacing,
  UploadSession,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import { isApiError } from '../../api/client';
import { isRetryableUploadError, sleep as wait, withRetry } from './retry';
import { RETRY_QUEUE_DELAYS_MS, UploadBreaker } from './uploadBreaker';
import { DEFAULT_UPLOAD_PACING, GROUP_PAUSE_MS, planUploadSteps, uploadSessionName } from './uploadPacing';

/** The calls of an upload (`/api/parallel/*`). */
export interface UploadTransport<F> {
  /** `GET /optimal-batch-size`. */
  pacing(): Promise<UploadPacing>;
  /** `POST /upload-session`, announcing how many files will be sent. */
  createSession(sessionName: string, expectedFiles: number): Promise<{ session: UploadSession }>;
  /** `POST /upload-batch/{sessionId}` (field `files`). */
  uploadBatch(sessionId: string, files: F[]): Promise<UploadMultipleResponse>;
  /** `POST /upload-finalize/{sessionId}`. */
  finalize(sessionId: string): Promise<UploadSessionSummary>;
}

export interface UploadRunProgress {
  sessionId: string;
  /** Files whose request has ended (accepted or not). */
  sentFiles: number;
  totalFiles: number;
  /** While pausing between files or groups: when the next request goes (ms since epoch), else null. */
  nextRequestAt: number | null;
}

export interface FailedRequest<F> {
  files: F[];
  error: unknown;
}

export interface UploadRunResult<F> {
  sessionId: string;
  /** The records the server created; a file it refused is here with status FAILED. */
  accepted: FileRecord[];
  /** Requests that failed after their retries; their files are not in the session. */
  failedRequests: FailedRequest<F>[];
  /** The finalized session, or null when finalizing failed (`finalizeError`). */
  summary: UploadSessionSummary | null;
  finalizeError: unknown;
}

export interface UploadRunOptions {
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The session exists (before any file is sent). */
  onSession?: (session: UploadSession) => void;
  onProgress?: (progress: UploadRunProgress) => void;
}

/**
 * An answer after which the rest of the session cannot go on either: signed out (401/403), or the
 * session is gone or already finalized (404/409).
 */
function endsSession(error: unknown): boolean {
  return isApiError(error) && [401, 403, 404, 409].includes(error.status as number);
}

/**
 * Uploads `files` into one new upload session. Rejects only when the session cannot be created;
 * failed batches and a failed finalize are reported in the result so the caller can tell the user
 * which files did not arrive.
 */
export async function runUpload<F>(
  files: readonly F[],
  fileName: (file: F) => string,
  transport: UploadTransport<F>,
  options: UploadRunOptions = {},
): Promise<UploadRunResult<F>> {
  const sleep = options.sleep ?? wait;
  const now = options.now ?? Date.now;
  const retry = { sleep };

  // Pacing only tunes the batches: if it cannot be read, the spec's defaults do.
  const pacing = await withRetry(() => transport.pacing(), retry).catch(() => DEFAULT_UPLOAD_PACING);
  const { session } = await withRetry(
    () => transport.createSession(uploadSessionName(files.map(fileName)), files.length),
    retry,
  );
  options.onSession?.(session);

  const accepted: FileRecord[] = [];
  const failedRequests: FailedRequest<F>[] = [];
  let sentFiles = 0;
  const report = (nextRequestAt: number | null) =>
    options.onProgress?.({ sessionId: session.id, sentFiles, totalFiles: files.length, nextRequestAt });
  report(null);

  const steps = planUploadSteps(files, pacing);
  const breaker = new UploadBreaker();
  const retryQueue: FailedRequest<F>[] = [];
  /** Waits `ms` (when any), showing when the next request goes. */
  const pause = async (ms: number) => {
    if (ms <= 0) return;
    report(now() + ms);
    await sleep(ms);
    report(null);
  };
  let ended = false;
  for (const [index, step] of steps.entries()) {
    await pause(
      step.pauseBeforeMs + breaker.pauseBeforeNext(index > 0 && step.pauseBeforeMs >= GROUP_PAUSE_MS),
    );
    try {
      const response = await withRetry(() => transport.uploadBatch(session.id, step.files), retry);
      accepted.push(...response.files);
      breaker.recordSuccess();
    } catch (error) {
      breaker.recordFailure();
      if (endsSession(error)) {
        failedRequests.push({ files: steps.slice(index).flatMap((s) => s.files), error });
        sentFiles = files.length;
        ended = true;
        break;
      }
      // Worth another go later (network, 5xx): the retry queue; otherwise it has failed for good.
      if (isRetryableUploadError(error)) retryQueue.push({ files: step.files, error });
      else failedRequests.push({ files: step.files, error });
    }
    sentFiles += step.files.length;
    report(null);
  }

  // The retry queue: each request gets 3 more attempts, after the breaker's pause if it is open.
  for (const [index, queued] of ended ? [] : retryQueue.entries()) {
    await pause(breaker.pauseBeforeNext(index === 0));
    try {
      const response = await withRetry(() => transport.uploadBatch(session.id, queued.files), {
        ...retry,
        delaysMs: RETRY_QUEUE_DELAYS_MS,
      });
      accepted.push(...response.files);
      breaker.recordSuccess();
    } catch (error) {
      breaker.recordFailure();
      failedRequests.push({ files: queued.files, error });
      if (endsSession(error)) {
        failedRequests.push(...retryQueue.slice(index + 1));
        break;
      }
    }
  }
  // The session ended before the queue's turn: its requests failed with their last error.
  if (ended) failedRequests.unshift(...retryQueue);

  // Finalize even when nothing arrived, so the session ends instead of staying active.
  let summary: UploadSessionSummary | null = null;
  let finalizeError: unknown = null;
  try {
    summary = await withRetry(() => transport.finalize(session.id), retry);
  } catch (error) {
    finalizeError = error;
  }
  return { sessionId: session.id, accepted, failedRequests, summary, finalizeError };
}
