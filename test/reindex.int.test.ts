/**
 * A reindex nobody notices (issue 34): rebuilding the search index used to empty every account's
 * search for its whole length (5 minutes: `Muller` found 0 rows instead of 1,885). Now each file
 * keeps its rows until its own job reads it again. Here the reindex is queued with no worker
 * running, so every file waits its turn: both accounts' searches answer exactly as before. Then a
 * worker reads them all, and the searches still answer exactly as before. Last, a reindex with the
 * worker running while both accounts search without a pause: no file is ever missing, not even
 * while its own rows load again (they load beside the old ones, and the record switches over).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadWorkerConfig, startIngestRuntime, type IngestRuntime } from '@sift/ingest-worker';
import type { DeletionResult, FileRecord, SearchResponse, UploadSession } from '@sift/shared/contracts';
import { searchView, useTwoAccounts, type ApiClient } from './support/sift.ts';

const accounts = useTwoAccounts(['Rhea', 'Index'], { runWorker: false });
let runtime: IngestRuntime | undefined;
afterAll(async () => {
  await runtime?.close();
});

const csv = (name: string, rows: string[]) => ({
  name,
  bytes: new TextEncoder().encode(`Authors,Email Addresses,Title\n${rows.join('\n')}\n`),
});

it('keeps every file searchable until its own turn in a reindex, and ends with the same results', async () => {
  const { sift, admin, other } = accounts;
  const config = loadWorkerConfig({
    DATA_DIR: sift.config.dataDir,
    CLICKHOUSE_DATABASE: sift.config.clickhouseDatabase,
    REDIS_URL: sift.config.redisUrl,
  });
  const startWorker = () =>
    startIngestRuntime({
      config: { ...config, queuePrefix: sift.config.queuePrefix },
      storage: sift.storage,
    });
  const uploads: [ApiClient, ReturnType<typeof csv>[]][] = [
    [admin, [csv('mine.csv', ['"Müller, H; Kim, J",hm@uni.de,Paper A', '"Muller, P",,Paper B'])]],
    [other, [csv('theirs.csv', ['"MULLER, A",am@x.org,Paper C']), csv('more.csv', ['"Lee, S",,Paper D'])]],
  ];
  // Read once by a worker that then stops, so the reindex below finds no worker.
  runtime = await startWorker();
  for (const [client, files] of uploads)
    for (const f of await client.upload(files))
      expect((await client.waitForIngest(f.id)).status).toBe('PROCESSED');
  await runtime.close();
  runtime = undefined;
  const before = [await searchView(admin), await searchView(other)];
  expect(before[0]!.general.total).toBe(2);
  expect(before[1]!.authors.total).toBe(2);

  const res = await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' });
  expect(res.status).toBe(200);
  expect(((await res.json()) as DeletionResult).clickHouseReindexed).toBe(3);
  // Queued, not yet read: nothing left the searches.
  expect([await searchView(admin), await searchView(other)]).toEqual(before);

  runtime = await startWorker();
  for (const client of [admin, other]) await client.waitForReindex();
  expect([await searchView(admin), await searchView(other)]).toEqual(before);
});

it('answers every search exactly while the files are read again, their own loads included', async () => {
  const { admin, other } = accounts;
  // Larger files: each load takes long enough for many searches to land in it.
  const big = (name: string, tag: string) =>
    csv(
      name,
      Array.from({ length: 20_000 }, (_, i) => `"${tag} ${i}, A; Müller, B",p${i}@${tag}.org,Title ${i}`),
    );
  for (const [client, file] of [
    [admin, big('big-mine.csv', 'mine')],
    [other, big('big-theirs.csv', 'theirs')],
  ] as const)
    for (const f of await client.upload([file]))
      expect((await client.waitForIngest(f.id)).status).toBe('PROCESSED');
  const before = [await searchView(admin), await searchView(other)];
  expect(before[0]!.general.total).toBe(20_002);

  const res = await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' });
  expect(res.status).toBe(200);
  expect(((await res.json()) as DeletionResult).clickHouseReindexed).toBe(5);
  let done = false;
  const finished = Promise.all([admin.waitForReindex(), other.waitForReindex()]).finally(() => {
    done = true;
  });
  let searches = 0;
  const wrong: string[] = [];
  while (!done) {
    const now = [await searchView(admin), await searchView(other)];
    searches += 1;
    for (const [i, view] of now.entries())
      if (view.general.total !== before[i]!.general.total || view.authors.total !== before[i]!.authors.total)
        wrong.push(`search ${searches}, account ${i}: ${view.general.total} / ${view.authors.total} rows`);
  }
  await finished;
  // Searches kept coming through the whole reindex, and every one found every row.
  expect(searches).toBeGreaterThan(5);
  expect(wrong).toEqual([]);
  expect([await searchView(admin), await searchView(other)]).toEqual(before);
});

it('leaves a file searchable with its rows when its reindex fails for good', async () => {
  const { sift, admin } = accounts;
  const [file] = await admin.upload([csv('kept.csv', ['"Keeper, K",kk@x.org,Paper K'])]);
  expect((await admin.waitForIngest(file!.id)).status).toBe('PROCESSED');
  const find = () => admin.json<SearchResponse>('/file/search', { searchCriteria: { Authors: 'keeper' } });
  expect((await find()).totalRecords).toBe(1);
  // Its stored original no longer reads as a spreadsheet: the reindex of it fails, for good.
  const stored = (await admin.json<FileRecord[]>('/file/files')).find((f) => f.id === file!.id)!;
  writeFileSync(path.join(sift.config.dataDir, 'blobs', stored.filename), '\u0000\u0001 not a spreadsheet');
  expect((await admin.fetch('/admin/reindex-clickhouse', { method: 'POST' })).status).toBe(200);
  await admin.waitForReindex();
  // The reindex's session says the file failed.
  const reindexes = (await admin.json<UploadSession[]>('/upload-tracking/sessions')).filter(
    (s) => s.sessionName === 'Reindex',
  );
  expect(reindexes.some((s) => s.failedFiles === 1)).toBe(true);
  // Still PROCESSED and found; the other files were read again as usual.
  expect((await admin.json<FileRecord>(`/file/files/${file!.id}`)).status).toBe('PROCESSED');
  expect((await find()).totalRecords).toBe(1);
  expect((await searchView(admin)).general.total).toBe(20_003);
});
