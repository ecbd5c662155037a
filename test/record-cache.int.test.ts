/**
 * The API's record cache (api/src/accounts/record-cache.ts): searches reuse an account's file
 * records until any writer changes them, so a deleted file never appears, a file the worker has
 * just finished is searchable at once, and an account an administrator deactivates is refused at
 * its next request. Each write here is followed at once by the read that must see it: no waits.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { fileFilterPredicate, type FileFilter } from '@sift/clickhouse';
import type { Account, FileRecord, SearchResponse } from '@sift/shared/contracts';
import { RecordVersions } from '@sift/shared/redis';
import { ApiClient, siftWithData } from './support/sift.ts';

/** A CSV of `rows` rows named `name` 0…; `extra` adds a column only this file has. */
const csv = (name: string, rows: number, extra = '') =>
  new TextEncoder().encode(
    [
      `Name,City${extra && `,${extra}`}`,
      ...Array.from({ length: rows }, (_, i) => `${name} ${i},City ${i % 3}${extra && ',x'}`),
    ].join('\n'),
  );

let sift: RunningSift;
let admin: ApiClient;
let user: ApiClient;
let files: FileRecord[];

beforeAll(async () => {
  ({ sift, admin, user, files } = await siftWithData(
    { email: 'cache@example.com', firstName: 'Cam', lastName: 'Che' },
    [
      { name: 'alpha.csv', bytes: csv('Alpha', 40, 'Alpha Only') },
      { name: 'beta.csv', bytes: csv('Beta', 30) },
    ],
  ));
});
afterAll(async () => {
  await sift?.close();
});

const search = (criteria: Record<string, string>, extra: object = {}) =>
  user.json<SearchResponse>('/file/search', { searchCriteria: criteria, size: 100, ...extra });

it('filters cached records exactly as the engine filters them', async () => {
  const me = await user.json<Account>('/accounts/me');
  const all = await sift.storage.files.list({ ownerId: me.id });
  const [first, second] = all;
  const day = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString();
  const filters: FileFilter[] = [
    { ownerId: me.id },
    { ownerId: me.id, fileType: 'GENERAL', status: 'PROCESSED' },
    { ownerId: me.id, fileType: 'AUTHOR' },
    { ownerId: me.id, ids: [first!.id, 'no-such-id'] },
    { ownerId: me.id, ids: [] },
    { ownerId: me.id, excludedIds: [second!.id] },
    { ownerId: me.id, uploadedFrom: first!.uploadDate },
    { ownerId: me.id, uploadedTo: first!.uploadDate.slice(0, 10) },
    {
      ownerId: me.id,
      uploadedFrom: day(first!.uploadDate, -1).slice(0, 19),
      uploadedTo: day(first!.uploadDate, 1),
    },
    { ownerId: 'someone-else' },
  ];
  for (const filter of filters) {
    const engine = (await sift.storage.files.list(filter)).map((f) => f.id);
    expect(
      all.filter(fileFilterPredicate(filter)).map((f) => f.id),
      JSON.stringify(filter),
    ).toEqual(engine);
  }
});

it('never shows a deleted file, though its records were cached a moment before', async () => {
  const [alpha, beta] = files;
  // Fill the cache: the search, the column list and the suggestions read the file records.
  expect((await search({ Name: 'alpha' })).totalRecords).toBe(40);
  expect(await user.json<string[]>('/file/columns')).toEqual(['Name', 'City', 'Alpha Only']);

  expect((await user.fetch(`/file/files/${alpha!.id}`, { method: 'DELETE' })).status).toBe(204);
  // The columns come from the file records alone (the rows are gone either way).
  expect(await user.json<string[]>('/file/columns')).toEqual(['Name', 'City']);
  const after = await search({});
  expect(after.columns).toEqual(['Name', 'City']);
  expect(after.totalRecords).toBe(30);
  expect(new Set(after.data.map((r) => r.__fileId))).toEqual(new Set([beta!.id]));
  expect((await search({ Name: 'alpha' })).totalRecords).toBe(0);
  expect((await search({}, { fileIds: [alpha!.id] })).totalRecords).toBe(0);
  const listed = await user.json<FileRecord[]>('/file/files');
  expect(listed.map((f) => f.id)).not.toContain(alpha!.id);
});

/** The criteria of every count of matching rows the engine is asked for, until `stop`. */
function countCalls(): { counted: unknown[]; stop: () => void } {
  const rows = sift.storage.rows;
  const counted: unknown[] = [];
  const count = rows.count.bind(rows);
  rows.count = (q) => (counted.push(q.criteria), count(q));
  return { counted, stop: () => void (rows.count = count) };
}

it('counts a search once while the records stay the same, and again once they change', async () => {
  const { counted, stop } = countCalls();
  try {
    const pages = await Promise.all([0, 1, 2].map((page) => search({ Name: 'beta' }, { size: 10, page })));
    expect(pages.map((p) => [p.totalRecords, p.data.length])).toEqual([
      [30, 10],
      [30, 10],
      [30, 10],
    ]);
    expect((await search({ Name: 'beta 1' }, { size: 5 })).totalRecords).toBe(11);
    expect((await search({ Name: 'beta' }, { size: 5, page: 6 })).data).toEqual([]);
    // Three pages of one search and the same search again: counted once; another term once more.
    expect(counted).toEqual([{ Name: 'beta' }, { Name: 'beta 1' }]);

    // A new file of the owner (its records written): counted again, its rows in the count.
    const [more] = await user.upload([{ name: 'beta-more.csv', bytes: csv('Beta', 5) }]);
    await user.waitForIngest(more!.id);
    counted.length = 0;
    expect((await search({ Name: 'beta' }, { size: 10 })).totalRecords).toBe(35);
    expect(counted).toEqual([{ Name: 'beta' }]);
    expect((await user.fetch(`/file/files/${more!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await search({ Name: 'beta' }, { size: 10 })).totalRecords).toBe(30);
    expect(counted).toHaveLength(2);
  } finally {
    stop();
  }
});

it('holds a bounded number of results an account: the least recently used are counted again', async () => {
  const { counted, stop } = countCalls();
  try {
    expect((await search({ Name: 'beta 2' })).totalRecords).toBe(11);
    expect((await search({ Name: 'beta 2' })).totalRecords).toBe(11);
    expect(counted).toHaveLength(1);
    // Each search holds its count and the rows it leaves out: 40 others push the first one out.
    for (let i = 0; i < 40; i++) await search({ City: `city ${i}` });
    counted.length = 0;
    expect((await search({ Name: 'beta 2' })).totalRecords).toBe(11);
    expect(counted).toEqual([{ Name: 'beta 2' }]);
  } finally {
    stop();
  }
});

it('searches a file as soon as the worker has finished it', async () => {
  expect((await search({ Name: 'gamma' })).totalRecords).toBe(0); // cached: no Gamma file
  const [gamma] = await user.upload([{ name: 'gamma.csv', bytes: csv('Gamma', 25) }]);
  await user.waitForIngest(gamma!.id);
  expect((await search({ Name: 'gamma' })).totalRecords).toBe(25);
});

it('sees a change made by another process (its version bump arriving through Redis)', async () => {
  // Another process's write: a file record marked deleted in ClickHouse, then its owner's version
  // bumped from a Redis connection of its own, as that process's storage would.
  const me = await user.json<Account>('/accounts/me');
  const [beta] = await user
    .json<FileRecord[]>('/file/files')
    .then((all) => all.filter((f) => f.originalFilename === 'beta.csv'));
  expect((await search({ Name: 'beta' })).totalRecords).toBe(30);
  const stored = await sift.storage.files.get(beta!.id);
  const other = new Redis(sift.config.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    // The write, without this process's own announcement: only the other process's bump tells.
    await sift.storage.client.insert({
      table: `${sift.storage.database}.files`,
      format: 'JSONEachRow',
      values: [
        {
          id: stored!.id,
          owner_id: stored!.ownerId,
          original_filename: stored!.originalFilename,
          file_type: stored!.fileType,
          status: stored!.status,
          upload_date: stored!.uploadDate,
          version: Date.now() * 1000 + 999,
          is_deleted: 1,
        },
      ],
    });
    expect((await search({ Name: 'beta' })).totalRecords).toBe(30); // not announced yet: cached
    await new RecordVersions(other, sift.config.queuePrefix).bump([me.id]);
    expect((await search({ Name: 'beta' })).totalRecords).toBe(0);
  } finally {
    other.disconnect();
  }
});

it('refuses an account at its first request after an administrator deactivates it', async () => {
  const me = await user.json<Account>('/accounts/me');
  expect(me.active).toBe(true);
  await admin.json(`/admin/accounts/${me.id}`, { active: false }, 'PUT');
  const refused = await user.sendJson('/file/search', {});
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('ACCOUNT_INACTIVE');
});
