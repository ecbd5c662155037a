/**
 * A job whose worker dies or hangs on it every time it is tried fails for good without its handler
 * ever running again: its file must still end FAILED with a reason, in the files list and in its
 * upload session, not stay PROCESSING. Here a worker takes the job and stops without finishing it
 * (as a crashed process would), and Sift's worker, allowed no stall, finds it stalled.
 */
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { loadWorkerConfig, startIngestRuntime, type IngestRuntime } from '@sift/ingest-worker';
import type { UploadMultipleResponse, UploadSessionSummary } from '@sift/shared/contracts';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import { ApiClient, startTestSift, waitFor } from './support/sift.ts';

const LOCK_MS = 1_000;
let sift: RunningSift;
let runtime: IngestRuntime | undefined;
let user: ApiClient;

beforeAll(async () => {
  sift = await startTestSift({ runWorker: false });
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Stella', 'Stall');
});
afterAll(async () => {
  await runtime?.close();
  await sift?.close();
});

describe('a job that stalls too often', () => {
  it('leaves its file FAILED with a reason', async () => {
    const connection = { url: sift.config.redisUrl };
    let taken!: () => void;
    const took = new Promise<void>((resolve) => (taken = resolve));
    const dying = new Worker(
      INGEST_QUEUE,
      () => {
        taken();
        return new Promise(() => {}); // never finishes
      },
      { connection, prefix: sift.config.queuePrefix, lockDuration: LOCK_MS, stalledInterval: LOCK_MS },
    );
    const form = new FormData();
    form.append('files', new Blob(['Name\nAda\n']), 'stuck.csv');
    const res = await user.fetch('/file/upload-multiple', { method: 'POST', body: form });
    const { sessionId, files } = (await res.json()) as UploadMultipleResponse;
    const file = files[0]!;
    await took;
    await dying.close(true); // stops renewing the job's lock, as a dead process would

    const config = loadWorkerConfig({
      DATA_DIR: sift.config.dataDir,
      CLICKHOUSE_DATABASE: sift.config.clickhouseDatabase,
      REDIS_URL: sift.config.redisUrl,
    });
    runtime = await startIngestRuntime({
      config: { ...config, queuePrefix: sift.config.queuePrefix, ingestLockMs: LOCK_MS, ingestMaxStalls: 0 },
    });

    const failed = await user.waitForIngest(file.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toMatch(/^Processing this file stopped unexpectedly each time it was tried/);
    const summary = await waitFor(
      () => user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`),
      (s) => s.session.isCompleted,
      { what: 'the upload session to complete' },
    );
    expect(summary.files.map((f) => [f.status, f.errorMessage])).toEqual([['FAILED', failed.errorMessage]]);
  });
});
