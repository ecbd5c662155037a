/**
 * One account cannot take every physical column of the shared `rows` table (issue 33): its files
 * together add at most MAX_PHYSICAL_COLUMNS_PER_ACCOUNT; past it a new header overflows into the
 * `extra` map (searchable, only slower), while another account's new headers still get columns.
 * Likewise its files carry at most MAX_TEXT_INDEXES_PER_ACCOUNT text skip indexes, and another
 * account's new columns are still indexed.
 */
import { expect, it } from 'vitest';
import type { FileRecord, SearchResponse } from '@sift/shared/contracts';
import {
  MAX_NEW_COLUMNS_PER_FILE,
  MAX_PHYSICAL_COLUMNS_PER_ACCOUNT,
  MAX_TEXT_INDEXES_PER_ACCOUNT,
} from '@sift/clickhouse';
import { useTwoAccounts, type ApiClient } from './support/sift.ts';

const accounts = useTwoAccounts(['Wanda', 'Wide']);

/** Uploads a one-row CSV of `headers` (each cell its header in lower case) and waits for it. */
async function ingested(client: ApiClient, name: string, headers: string[]): Promise<FileRecord> {
  const csv = `${headers.join(',')}\n${headers.map((h) => h.toLowerCase()).join(',')}\n`;
  const [uploaded] = await client.upload([{ name, bytes: new TextEncoder().encode(csv) }]);
  const file = await client.waitForIngest(uploaded!.id);
  expect(file.status).toBe('PROCESSED');
  return file;
}

/** The physical columns of the file's headers (the rest overflow into `extra`). */
const columnsOf = async (file: FileRecord) =>
  Object.values((await accounts.sift.storage.files.get(file.id))!.columnMap).filter(Boolean);
const physical = async (file: FileRecord) => (await columnsOf(file)).length;
/** How many of the files' physical columns carry a text skip index. */
async function indexed(...files: FileRecord[]): Promise<number> {
  const all = await accounts.sift.storage.rows.indexedColumns();
  const columns = new Set((await Promise.all(files.map(columnsOf))).flat());
  return [...columns].filter((c) => all.has(c)).length;
}

const headers = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

it("adds no more physical columns for an account past its share, and still adds another account's", async () => {
  const first = await ingested(accounts.admin, 'wide-1.csv', headers('First', MAX_NEW_COLUMNS_PER_FILE));
  expect(await physical(first)).toBe(MAX_NEW_COLUMNS_PER_FILE);
  // The second file may add only what is left of the account's share.
  const second = await ingested(accounts.admin, 'wide-2.csv', headers('Second', MAX_NEW_COLUMNS_PER_FILE));
  expect(await physical(second)).toBe(MAX_PHYSICAL_COLUMNS_PER_ACCOUNT - MAX_NEW_COLUMNS_PER_FILE);
  const third = await ingested(accounts.admin, 'wide-3.csv', headers('Third', 50));
  expect(await physical(third)).toBe(0);
  // Overflowing headers stay searchable.
  const found = await accounts.admin.json<SearchResponse>('/file/search', {
    fileIds: [third.id],
    searchCriteria: { 'Third 50': 'third 50' },
  });
  expect(found.totalRecords).toBe(1);
  // One account's files carry at most its share of the table's text indexes.
  expect(await indexed(first, second, third)).toBe(MAX_TEXT_INDEXES_PER_ACCOUNT);
  // Another account's new headers still get columns of their own, and indexes on them.
  const theirs = await ingested(accounts.other, 'theirs.csv', headers('Theirs', 50));
  expect(await physical(theirs)).toBe(50);
  expect(await indexed(theirs)).toBe(50);
});
