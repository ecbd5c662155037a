/**
 * Files and administration in a real browser: one upload session of several files, the search's
 * file filter, bulk delete on /files, an administrator approving an account (seen from the new
 * user's own small-screen browser too), joining two of its people offered as the same name, and
 * removing it, and on /admin/system a snapshot and the
 * contact exports, the mass delete, and the restore that undoes it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { fixture } from '../support/fixtures.ts';
import { SiftApp } from './support/app.ts';
import { INGEST_TIMEOUT_MS, openBrowserSession, type BrowserSession } from './support/session.ts';

const FIXTURE = fixture('wos-savedrecs-small.xls');
/** The larger Web of Science export (469 records, with emails). */
const EMAILS_FIXTURE = fixture('wos-savedrecs-emails.xls');
/** How many files the Files screen counted before the mass delete (the restore brings them back). */
let filesBefore = 0;
const EMAILS_RECORDS = 469;

let session: BrowserSession;
let sift: RunningSift;
let app: SiftApp;
let page: Page;

beforeAll(async () => {
  session = await openBrowserSession();
  ({ sift, app, page } = session);
  await app.signInNew('admin@example.com', 'Ada Lovelace');
});

afterAll(async () => {
  await session?.close();
});

describe('Files and administration in a browser', () => {
  it(
    'uploads two Web of Science exports and two CSV files in one upload session',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-upload-'));
      try {
        const csvs = ['contacts-a.csv', 'contacts-b.csv'].map((name) => {
          const file = path.join(dir, name);
          writeFileSync(file, `Name,Email\nAda,ada@example.com\n${name},x@example.com\n`);
          return file;
        });
        await app.open('Upload');
        await app.upload.choose([FIXTURE, EMAILS_FIXTURE, ...csvs]);
        await app.upload.waitUntilComplete(INGEST_TIMEOUT_MS);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('narrows the search to included files, or leaves excluded ones out', async () => {
    await app.open('Search');
    const everything = 18 + EMAILS_RECORDS + 2 + 2;
    await app.sees(`Showing 1 to 20 of ${everything} results`);

    await app.search.filterFile('include', 'contacts-a.csv');
    await page.getByRole('button', { name: '1 file included' }).waitFor();
    await app.sees('Showing 2 results');
    // The columns offered are those of the included file.
    await app.search.columnsChip('2 of 2 columns').waitFor();
    await app.screenshot('search-file-filter');

    // Switching the mode clears the list; excluding the small Web of Science export leaves the rest.
    await page.getByText('Exclude', { exact: true }).click();
    await app.search.filterFile('exclude', 'wos-savedrecs-small.xls');
    await page.getByRole('button', { name: '1 file excluded' }).waitFor();
    await app.sees(`Showing 1 to 20 of ${EMAILS_RECORDS + 4} results`);

    await page.getByRole('button', { name: '1 file excluded' }).click();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.keyboard.press('Escape');
    await app.sees(`Showing 1 to 20 of ${everything} results`);
  });

  it('deletes selected files in bulk on /files', async () => {
    await app.open('Files');
    await app.files.total(6);
    await app.sees('Page 1 of 1');

    // The page's checkbox selects all six; the same again clears them.
    const pageBox = app.files.pageCheckbox();
    await pageBox.check();
    await app.sees('6 selected');
    await page.getByRole('button', { name: 'Clear selection' }).waitFor();
    await pageBox.uncheck();
    await app.sees('0 selected');
    await expect(app.files.deleteSelectedButton().isDisabled()).resolves.toBe(true);

    await app.files.select('contacts-a.csv');
    await app.files.select('contacts-b.csv');
    await expect(
      pageBox.evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate),
    ).resolves.toBe(true);
    await app.files.deleteSelected(
      'Are you sure you want to delete 2 file(s)? This action cannot be undone.',
    );
    await app.sees('Successfully deleted 2 file(s)');
    await app.files.total(4);
    await expect(app.files.rows('contacts-').count()).resolves.toBe(0);
    await app.sees('0 selected');
  });

  it('lets an admin activate a new account, which then reaches the profile setup', async () => {
    const {
      context: other,
      page: reader,
      app: readerApp,
    } = await session.newTab({ width: 375, height: 812 });
    try {
      await readerApp.signIn('reader@example.com', 'Grace Hopper');
      await readerApp.sees('Your account is inactive and awaiting administrator approval.');
      await readerApp.sees('Inactive', { exact: true });
      await readerApp.screenshot('awaiting-approval');

      await app.openAdmin('Accounts');
      await page.getByRole('heading', { name: 'User Accounts' }).waitFor();
      await app.sees('2 of 2 accounts');
      await app.adminAccounts.filter('Inactive Only');
      await expect(page.getByRole('radio', { name: 'Inactive Only' }).isChecked()).resolves.toBe(true);
      await app.sees('1 of 1 accounts');
      const row = app.adminAccounts.row('reader@example.com');
      await row.getByText('Inactive', { exact: true }).waitFor();
      await row.getByText('Pending', { exact: true }).waitFor();
      await app.screenshot('admin-accounts');
      await row.getByRole('button', { name: /^Activate / }).click();
      await app.sees('Account activated successfully');
      // Under 'Inactive Only' the activated account leaves the list.
      await app.sees('No accounts found');
      await app.sees('Try adjusting your filter criteria');

      await reader.getByRole('button', { name: 'Recheck Status' }).click();
      await readerApp.sees('Status checked successfully');
      await readerApp.profileSetup.shown();
      await readerApp.profileSetup.complete('Grace', 'Hopper');
      await readerApp.at('/files');

      // Without admin:view the admin routes lead back to /files, and there is no Admin menu.
      await reader.goto(`${sift.url}/admin/system`);
      await readerApp.at('/files');
      await readerApp.files.total(0);
      await readerApp.screenshot('files-small-screen');
      await reader.getByRole('button', { name: 'Open navigation' }).click();
      await reader.getByRole('menuitem', { name: 'Exports' }).waitFor();
      await readerApp.screenshot('navigation-small-screen');
      await expect(reader.getByRole('menuitem', { name: 'System Admin' }).count()).resolves.toBe(0);
      await reader.keyboard.press('Escape');

      // The reader's export names two J. Kowalskis with different emails at one address: the
      // administrator reviews them from the account's row, sees the address in common, and joins them.
      const dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-people-'));
      try {
        const file = path.join(dir, 'kowalski.csv');
        writeFileSync(
          file,
          [
            'Authors,Author Full Names,Email Addresses,Article Title,Source Title,Publication Year,Addresses',
            '"Kowalski, J","Kowalski, Jan",jan.k@uw.edu.pl,First Paper,J Phys,2019,"[Kowalski, Jan] Univ Warsaw, Warsaw, Poland"',
            '"Kowalski, J","Kowalski, Jan",jk@fuw.edu.pl,Second Paper,Phys Rev,2021,"[Kowalski, Jan] Univ Warsaw, Warsaw, Poland"',
            '',
          ].join('\n'),
        );
        await reader.goto(`${sift.url}/upload`);
        await readerApp.upload.choose([file]);
        await readerApp.upload.waitUntilComplete(INGEST_TIMEOUT_MS);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      await app.adminAccounts.filter('All Accounts');
      await row
        .getByRole('button', { name: 'Review the people of Grace Hopper offered as the same name' })
        .click();
      const review = page.getByRole('dialog', { name: 'Possibly the same person: reader@example.com' });
      await review.getByText('1 pair to review.', { exact: false }).waitFor();
      await review.getByText('Affiliations in common: Univ Warsaw, Warsaw, Poland').waitFor();
      await app.screenshot('admin-people-review');
      await review
        .getByRole('button', { name: 'Kowalski, Jan and Kowalski, Jan are the same person' })
        .click();
      await app.sees('Kowalski, Jan and Kowalski, Jan are now one person.');
      await review.getByText('No people of the same name to review.').waitFor();
      await page.keyboard.press('Escape');
      await review.waitFor({ state: 'hidden' });

      // The admin deactivates, then deletes the account (the confirmation names its email).
      await app.sees('2 of 2 accounts');
      await row.getByRole('button', { name: /^Deactivate / }).click();
      await app.sees('Account deactivated successfully');
      await row.getByText('Inactive', { exact: true }).waitFor();
      await app.adminAccounts.delete('reader@example.com');
      await app.sees('Account deleted successfully');
      await app.sees('1 of 1 accounts');
    } finally {
      await other.close();
    }
  });

  it('takes a snapshot and downloads the contact exports on System Admin', async () => {
    await app.open('Files');
    const before = await page.getByRole('heading', { name: /^All Files \(\d+ total\)$/ }).innerText();
    filesBefore = Number(/\((\d+) total\)/.exec(before)![1]);
    expect(filesBefore).toBeGreaterThan(0);
    await app.openAdmin('System Admin');
    // Every upload is read: the ingest queue holds no job.
    const queue = page.getByRole('region', { name: 'Ingest queue' });
    await queue.getByText('No file is waiting or being read.').waitFor();
    await queue.getByText('0 waiting').waitFor();
    const snapshots = page.getByRole('region', { name: 'Snapshots' });
    await snapshots.getByText('No snapshots yet.').waitFor();
    await snapshots.getByRole('button', { name: 'Take snapshot' }).click();
    await app.sees('Snapshot taken');
    const row = snapshots.getByRole('table', { name: 'Snapshots' }).getByRole('row').nth(1);
    // Taken, by, accounts, files: every file of the installation (the AUTHOR files derived too).
    expect((await row.getByRole('cell').allInnerTexts())[1]).toBe('admin@example.com');
    expect(Number((await row.getByRole('cell').allInnerTexts())[3])).toBeGreaterThanOrEqual(filesBefore);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download emails' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^contacts-emails-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    // A header and the distinct addresses of the export with emails.
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.slice(1).every((line) => line.includes('@'))).toBe(true);
    await app.screenshot('admin-system-snapshots');
  });

  it('deletes all files and data after two confirmations and the typed phrase', async () => {
    await app.openAdmin('System Admin');
    await page.getByRole('heading', { name: 'System Admin' }).waitFor();
    await app.screenshot('admin-system');

    // Anything but the exact phrase cancels, and nothing is deleted.
    await app.adminSystem.massDelete('delete all');
    await app.sees('Mass deletion cancelled - confirmation text did not match');
    await expect(app.adminSystem.massDeleteResult().count()).resolves.toBe(0);

    await app.adminSystem.massDelete('DELETE ALL');
    await app.sees('Mass deletion completed successfully');
    const result = app.adminSystem.massDeleteResult();
    // The two fixtures and the AUTHOR files derived from them.
    await expect(result.getByRole('row', { name: /File records deleted/ }).innerText()).resolves.toMatch(
      /\b4$/,
    );
    await expect(result.getByRole('row', { name: /Upload tracking cleared/ }).innerText()).resolves.toMatch(
      /Yes$/,
    );
    await app.screenshot('admin-system-mass-delete');

    await app.open('Files');
    await app.files.total(0);
  });

  it('brings the files back from the snapshot, once RESTORE is typed', async () => {
    await app.openAdmin('System Admin');
    // Every upload is read: the ingest queue holds no job.
    const queue = page.getByRole('region', { name: 'Ingest queue' });
    await queue.getByText('No file is waiting or being read.').waitFor();
    await queue.getByText('0 waiting').waitFor();
    const snapshots = page.getByRole('region', { name: 'Snapshots' });
    const restore = snapshots.getByRole('button', { name: /^Restore the snapshot of / });
    // A wrong word cancels.
    await restore.click();
    await app.dialog('Restore this snapshot?').getByRole('button', { name: 'Continue' }).click();
    const typed = app.dialog('Type to confirm the restore');
    await typed.getByLabel('Type RESTORE to confirm').fill('restore');
    await typed.getByRole('button', { name: 'Restore' }).click();
    await app.sees('Restore cancelled - confirmation text did not match');

    await restore.click();
    await app.dialog('Restore this snapshot?').getByRole('button', { name: 'Continue' }).click();
    await typed.getByLabel('Type RESTORE to confirm').fill('RESTORE');
    await typed.getByRole('button', { name: 'Restore' }).click();
    await app.sees(/^Restored the snapshot of /, { timeout: 120_000 });
    await expect(page.getByRole('status', { name: 'Restore result' }).innerText()).resolves.toMatch(
      /^Restored \d+ accounts, [1-9]\d* files, /,
    );
    await app.open('Files');
    await app.files.total(filesBefore);
  });

  it('threw no uncaught errors in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
