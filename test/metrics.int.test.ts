/**
 * Prometheus metrics (issue 36): served on a port of their own, scraped after an upload, a search
 * and an engine error, each counted where an operator would look.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { SearchResponse } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;

beforeAll(async () => {
  sift = await startTestSift({ metricsPort: 0 });
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Mona', 'Metrics');
});
afterAll(async () => {
  await sift?.close();
});

/** The metrics scraped now: each series (name and labels, as printed) with its value. */
async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(sift.metricsUrl!, { signal: AbortSignal.timeout(10_000) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const series = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

it('counts the rows an upload made searchable, its stages, its requests, a search and an engine error', async () => {
  const before = await scrape();
  const rows = 1234;
  const csv = `Name,City\n${Array.from({ length: rows }, (_, i) => `Person ${i},City ${i % 7}`).join('\n')}\n`;
  const [file] = await user.upload([{ name: 'people.csv', bytes: new TextEncoder().encode(csv) }]);
  expect((await user.waitForIngest(file!.id)).status).toBe('PROCESSED');
  const found = await user.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'Person 12' } });
  expect(found.totalRecords).toBeGreaterThan(0);
  await expect(sift.storage.client.query({ query: 'SELECT no_such_column' })).rejects.toThrow();

  const after = await scrape();
  const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
  expect(delta('sift_rows_ingested_total')).toBe(rows);
  expect(delta('sift_ingests_total{outcome="processed"}')).toBe(1);
  for (const stage of ['Validating file', 'Reading and loading rows', 'Finalizing'])
    expect(delta(`sift_ingest_stage_duration_seconds_count{stage="${stage}"}`)).toBe(1);
  expect(
    delta(
      'sift_http_request_duration_seconds_count{method="POST",route="/api/file/upload-multiple",status="201"}',
    ),
  ).toBe(1);
  // By the route's pattern, not the path: one series for every file's page.
  expect(
    delta('sift_http_request_duration_seconds_count{method="GET",route="/api/file/files/:id",status="200"}'),
  ).toBeGreaterThan(0);
  expect([...after.keys()].some((s) => s.includes(file!.id))).toBe(false);
  expect(delta('sift_search_duration_seconds_count{kind="rows"}')).toBe(1);
  expect(delta('sift_engine_query_errors_total{code="47"}')).toBe(1);
  // The queue's depth and age, asked of Redis at the scrape.
  expect(after.get('sift_ingest_queue_jobs{state="waiting"}')).toBe(0);
  expect(after.get('sift_ingest_queue_oldest_waiting_seconds')).toBe(0);
  expect(after.get('sift_process_resident_memory_bytes')).toBeGreaterThan(0);
});
