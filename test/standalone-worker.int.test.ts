/**
 * The stand-alone ingest worker's composition root (startIngestRuntime, what `ingest-worker/src/main.ts`
 * runs) against an API that runs no worker of its own: an upload is ingested and its upload session
 * is tracked to COMPLETED, with its AUTHOR file joining the session. The runtime opens its own
 * storage from its configuration; it shares this test process's chDB data directory, since chDB
 * allows one per process.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { loadWorkerConfig, startIngestRuntime, type IngestRuntime } from '@sift/ingest-worker';
import type { FileRecord, UploadMultipleResponse, UploadSessionSummary } from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { ApiClient, startTestSift, waitFor } from './support/sift.ts';

let sift: RunningSift;
let runtime: IngestRuntime;
let user: ApiClient;

beforeAll(async () => {
  sift = await startTestSift({ runWorker: false });
  const config = loadWorkerConfig({
    DATA_DIR: sift.config.dataDir,
    CLICKHOUSE_DATABASE: sift.config.clickhouseDatabase,
    REDIS_URL: sift.config.redisUrl,
  });
  runtime = await startIngestRuntime({ config: { ...config, queuePrefix: sift.config.queuePrefix } });
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Stan', 'Alone');
});
afterAll(async () => {
  await runtime?.close();
  await sift?.close();
});

describe('stand-alone ingest worker', () => {
  it('ingests an upload and tracks its session to COMPLETED, AUTHOR file included', async () => {
    const body = new FormData();
    body.append('files', new Blob([readFileSync(fixture('wos-savedrecs-small.xls'))]), 'wos.xls');
    const res = await user.fetch('/file/upload-multiple', { method: 'POST', body });
    expect(res.status).toBe(201);
    const { sessionId, files } = (await res.json()) as UploadMultipleResponse;

    const done = await waitFor(
      () => user.json<UploadSessionSummary>(`/upload-tracking/sessions/${sessionId}/summary`),
      (s) => s.session.isCompleted,
    );
    expect(done.session).toMatchObject({ totalFiles: 2, completedFiles: 2, failedFiles: 0 });
    expect(done.files.map((f) => [f.fileType, f.status])).toEqual([
      ['GENERAL', 'COMPLETED'],
      ['AUTHOR', 'COMPLETED'],
    ]);
    expect((await user.json<FileRecord>(`/file/files/${files[0]!.id}`)).status).toBe('PROCESSED');
  });
});
