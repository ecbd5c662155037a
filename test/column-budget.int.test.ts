/**
 * One account cannot take every physical column of the shared `rows` table (issue 33): its files
 * together add at most MAX_PHYSICAL_COLUMNS_PER_ACCOUNT; past it a new header overflows into the
 * `extra` map (searchable, only slower), while another account's new headers still get columns.
 */
import { expect, it } from 'vitest';
import type { FileRecord, SearchResponse } from '@sift/shared/contracts';
import { MAX_NEW_COLUMNS_PER_FILE, MAX_PHYSICAL_COLUMNS_PER_ACCOUNT } from '@sift/clickhouse';
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

/** The file's headers kept in physical columns (the rest overflow into `extra`). */
const physical = (file: FileRecord) =>
  accounts.sift.storage.files
    .get(file.id)
    .then(
      (f: { columnMap: Record<string, string> } | null) => Object.values(f!.columnMap).filter(Boolean).length,
    );

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
  // Another account's new headers still get columns of their own.
  const theirs = await ingested(accounts.other, 'theirs.csv', headers('Theirs', 50));
  expect(await physical(theirs)).toBe(50);
});
