/**
 * The main job end to end on the embedded defaults: sign in through the dev identity provider,
 * upload the real Web of Science exports, ingest them into chDB through the BullMQ worker on real
 * Redis, search, export, and the Authors search over the derived AUTHOR file.
 */
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { parseCsv } from './support/csv.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { Account, FileRecord, SearchResponse } from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { ApiClient, startTestSift } from './support/sift.ts';

const EMAILS_XLS = 'wos-savedrecs-emails.xls';
const SMALL_XLS = 'wos-savedrecs-small.xls';

/** The fixture's header row and records, read independently of Sift's own parser. */
function fixtureRecords(name: string): Record<string, string>[] {
  const wb = XLSX.read(readFileSync(fixture(name)));
  return XLSX.utils.sheet_to_json<Record<string, string>>(wb.Sheets[wb.SheetNames[0]!]!, {
    raw: false,
    defval: '',
  });
}

let sift: RunningSift;
let admin: ApiClient;
let general: FileRecord;
let small: FileRecord;

beforeAll(async () => {
  sift = await startTestSift();
  admin = await ApiClient.signIn(sift, 'admin@example.com', 'Ada Lovelace');
});
afterAll(async () => {
  await sift?.close();
});

describe('accounts', () => {
  it('creates the account on the first request; an admin starts active but must onboard', async () => {
    const me = await admin.json<Account>('/accounts/me');
    expect(me).toMatchObject({
      email: 'admin@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      active: true,
      onboarded: false,
    });
    const blocked = await admin.fetch('/file/files');
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { code: string }).code).toBe('ACCOUNT_NOT_ONBOARDED');

    const bad = await admin.sendJson('/accounts/onboard', { firstName: ' ', lastName: '' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe(
      'First name is required Last name is required',
    );

    const done = await admin.json<Account>('/accounts/onboard', { firstName: 'Ada', lastName: 'Lovelace' });
    expect(done.onboarded).toBe(true);
    expect((await admin.fetch('/file/files')).status).toBe(200);
  });

  it('answers 401 without a valid token', async () => {
    expect((await new ApiClient(sift.url, null).fetch('/accounts/me')).status).toBe(401);
    const forged = await new ApiClient(sift.url, `${admin.token!.slice(0, -4)}AAAA`).fetch('/file/files');
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { code: string }).code).toBe('INVALID_TOKEN');
  });
});

describe('upload → ingest → search → export', () => {
  it('ingests both Web of Science exports and a corrupt file fails alone', async () => {
    const uploaded = await admin.upload([
      { name: EMAILS_XLS, bytes: readFileSync(fixture(EMAILS_XLS)) },
      { name: 'broken.xlsx', bytes: new TextEncoder().encode('this is not a spreadsheet at all') },
      { name: SMALL_XLS, bytes: readFileSync(fixture(SMALL_XLS)) },
    ]);
    // The corrupt file is refused at once (its content is not a workbook); the others go on.
    expect(uploaded.map((f) => [f.originalFilename, f.status, f.fileType])).toEqual([
      [EMAILS_XLS, 'PROCESSING', 'GENERAL'],
      ['broken.xlsx', 'FAILED', 'GENERAL'],
      [SMALL_XLS, 'PROCESSING', 'GENERAL'],
    ]);
    const [a, broken, b] = await Promise.all(uploaded.map((f) => admin.waitForIngest(f.id)));
    general = a!;
    small = b!;
    expect(broken!.status).toBe('FAILED');
    expect(broken!.errorMessage).toMatch(/broken\.xlsx.*not an Excel workbook/);

    const emailsRecords = fixtureRecords(EMAILS_XLS);
    expect(general).toMatchObject({
      status: 'PROCESSED',
      totalRows: emailsRecords.length,
      rowCount: emailsRecords.length,
      totalColumns: 72,
      sheetNames: ['savedrecs'],
    });
    expect(general.columnNames).toEqual(Object.keys(emailsRecords[0]!));
    expect(small).toMatchObject({ status: 'PROCESSED', totalRows: fixtureRecords(SMALL_XLS).length });

    const list = await admin.json<FileRecord[]>('/file/files');
    const authorFiles = list.filter((f) => f.fileType === 'AUTHOR');
    expect(authorFiles.map((f) => f.sourceFileId).sort()).toEqual([general.id, small.id].sort());
    expect(list).toHaveLength(5);
  });

  it('searches per column, case-insensitively, ANDed, with paging', async () => {
    const records = fixtureRecords(EMAILS_XLS);
    const expected = records.filter((r) => r['Authors']!.toLowerCase().includes('feuerriegel'));
    expect(expected.length).toBeGreaterThan(0);
    const res = await admin.json<SearchResponse>('/file/search', {
      searchCriteria: { Authors: '  FEUERRIEGEL ' },
      page: 0,
      size: 20,
    });
    expect(res.searchAvailable).toBe(true);
    expect(res.totalRecords).toBe(expected.length);
    expect(res.data.map((r) => r['Article Title']).sort()).toEqual(
      expected.map((r) => r['Article Title']).sort(),
    );
    expect(res.data[0]).toMatchObject({ __fileName: EMAILS_XLS, __sheet: 'savedrecs', __fileId: general.id });

    const both = await admin.json<SearchResponse>('/file/search', {
      searchCriteria: { Authors: 'feuerriegel', 'Publication Year': '2023' },
    });
    const expectedBoth = expected.filter((r) => r['Publication Year']!.includes('2023'));
    expect(both.totalRecords).toBe(expectedBoth.length);

    const all = await admin.json<SearchResponse>('/file/search', { searchCriteria: {}, page: 1, size: 100 });
    expect(all.totalRecords).toBe(general.totalRows + small.totalRows);
    expect(all.totalPages).toBe(Math.ceil(all.totalRecords / 100));
    expect(all.data).toHaveLength(100);

    const onlySmall = await admin.json<SearchResponse>('/file/search', { fileIds: [small.id] });
    expect(onlySmall.totalRecords).toBe(small.totalRows);
    const notSmall = await admin.json<SearchResponse>('/file/search', { excludedFileIds: [small.id] });
    expect(notSmall.totalRecords).toBe(general.totalRows);

    const none = await admin.json<SearchResponse>('/file/search', {
      searchCriteria: { Authors: 'zzzz%no_such' },
    });
    expect(none.totalRecords).toBe(0);
  });

  it('exports the matching rows as CSV and XLSX with a filename', async () => {
    const criteria = { searchCriteria: { Authors: 'staples' } };
    const found = await admin.json<SearchResponse>('/file/search', criteria);
    expect(found.totalRecords).toBeGreaterThan(0);

    const csv = await admin.sendJson('/file/export', {
      ...criteria,
      format: 'CSV',
      customFilename: 'staples',
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('staples.csv');
    const rows = await parseCsv(await csv.text());
    expect(rows[0]).toEqual(found.columns);
    expect(rows).toHaveLength(found.totalRecords + 1);
    const authorsAt = rows[0]!.indexOf('Authors');
    expect(rows.slice(1).every((r) => r[authorsAt]!.toLowerCase().includes('staples'))).toBe(true);

    const xlsx = await admin.sendJson('/file/export', {
      ...criteria,
      format: 'XLSX',
      columns: ['Authors', 'Article Title'],
    });
    expect(xlsx.headers.get('content-disposition')).toMatch(/search_results_\d{4}-\d{2}-\d{2}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await xlsx.arrayBuffer());
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(found.totalRecords + 1);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Authors', 'Article Title']);
  });

  it('derives the AUTHOR file: one author per row, every email kept, found by surname', async () => {
    const res = await admin.json<SearchResponse>('/file/preprocessed/search', {
      searchCriteria: { Authors: 'Feuerriegel' },
    });
    expect(res.searchAvailable).toBe(true);
    expect(res.totalRecords).toBeGreaterThan(0);
    for (const row of res.data) {
      expect(row['Authors']).toMatch(/^Feuerriegel, S$/);
      expect(row['Author Full Names']).toBe('Feuerriegel, Stefan');
    }
    expect(res.data.map((r) => r['Email Addresses'])).toContain('feuerriegel@lmu.de');

    const hartmann = await admin.json<SearchResponse>('/file/preprocessed/search', {
      searchCriteria: { 'Email Addresses': 'jochen.hartmann@tum.de' },
    });
    expect(hartmann.data.map((r) => r['Authors'])).toContain('Hartmann, J');

    // Email lists shorter than author lists (fixture records): each address goes to the author it names.
    for (const [email, author] of [
      ['sherson@mgmt.au.dk', 'Sherson, J'], // 'Rafner, J; Beaty, RE; Kaufman, JC; Lubart, T; Sherson, J'
      ['tbaek@skku.edu', 'Baek, TH'], // 'Kim, JS; Kim, M; Baek, TH'
      ['tk_kim@khu.ac.kr', 'Kim, T'], // 'Lee, GH; Lee, KJ; Jeong, B; Kim, T'
    ]) {
      const pair = await admin.json<SearchResponse>('/file/preprocessed/search', {
        searchCriteria: { 'Email Addresses': email! },
      });
      expect(pair.totalRecords).toBeGreaterThan(0);
      for (const r of pair.data) expect([r['Authors'], r['Email Match']]).toEqual([author, 'name']);
    }
    const rafner = await admin.json<SearchResponse>('/file/preprocessed/search', {
      searchCriteria: { Authors: 'Rafner, J', 'Author Full Names': 'Rafner' },
    });
    expect(rafner.data.map((r) => r['Email Addresses'])).toEqual(['']);

    // No email is dropped: every address in the fixture appears in the AUTHOR file's export.
    const exported = await admin.sendJson('/file/export', {
      searchCriteria: {},
      fileType: 'AUTHOR',
      format: 'CSV',
      columns: ['Email Addresses'],
    });
    const exportedEmails = (await parseCsv(await exported.text())).slice(1).map((r) => r[0]);
    const fixtureEmails = fixtureRecords(EMAILS_XLS).flatMap((r) =>
      r['Email Addresses']!.split(';')
        .map((e) => e.trim())
        .filter(Boolean),
    );
    expect(fixtureEmails.length).toBeGreaterThan(400);
    expect(exportedEmails.filter(Boolean).sort()).toEqual(fixtureEmails.sort());
  });
});

describe('ownership and approval', () => {
  it('keeps a new account inactive until an admin activates it, and hides other accounts’ files (404)', async () => {
    const other = await ApiClient.signIn(sift, 'reader@example.org', 'Rita Reader');
    const me = await other.json<Account>('/accounts/me');
    expect(me).toMatchObject({ active: false, onboarded: false });
    const inactive = await other.fetch('/file/files');
    expect(inactive.status).toBe(403);
    expect(((await inactive.json()) as { code: string }).code).toBe('ACCOUNT_INACTIVE');

    expect((await other.fetch(`/accounts/${me.id}/activate`, { method: 'PUT' })).status).toBe(403);
    const activated = await admin.json<Account>(`/accounts/${me.id}/activate`, undefined, 'PUT');
    expect(activated.active).toBe(true);
    await other.json<Account>('/accounts/onboard', { firstName: 'Rita', lastName: 'Reader' });

    expect(await other.json<FileRecord[]>('/file/files')).toEqual([]);
    const theirs = await other.fetch(`/file/files/${general.id}`);
    expect(theirs.status).toBe(404);
    expect((await other.fetch(`/file/files/${general.id}`, { method: 'DELETE' })).status).toBe(404);
    const search = await other.json<SearchResponse>('/file/search', { fileIds: [general.id] });
    expect(search.totalRecords).toBe(0);
    // Still there for its owner.
    expect((await admin.json<FileRecord>(`/file/files/${general.id}`)).status).toBe('PROCESSED');
  });

  it('deletes a file with its rows and its AUTHOR file', async () => {
    expect((await admin.fetch(`/file/files/${small.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin.fetch(`/file/files/${small.id}`)).status).toBe(404);
    const left = await admin.json<FileRecord[]>('/file/files');
    expect(left.some((f) => f.sourceFileId === small.id)).toBe(false);
    const all = await admin.json<SearchResponse>('/file/search', {});
    expect(all.totalRecords).toBe(general.totalRows);
  });
});
