/**
 * The walking skeleton in a real browser (Debian's Chromium through playwright-core): sign in through
 * the built-in dev identity provider, complete the profile setup, upload a real Web of Science
 * export on /upload and follow its upload session until it is complete, search one column on
 * /search and on /authors, export the results, manage the export history, and sign out. The file
 * filter, bulk delete and the admin screens are in admin.e2e.test.ts.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { fixture } from '../support/fixtures.ts';
import type { PageStorage, SiftApp } from './support/app.ts';
import { INGEST_TIMEOUT_MS, openBrowserSession, type BrowserSession } from './support/session.ts';

const FIXTURE = fixture('wos-savedrecs-small.xls');

let session: BrowserSession;
let sift: RunningSift;
let app: SiftApp;
let page: Page;
/** The bytes of the CSV export as first downloaded (the history download must equal them). */
let exported: Buffer;

beforeAll(async () => {
  session = await openBrowserSession();
  ({ sift, app, page } = session);
});

afterAll(async () => {
  await session?.close();
});

describe('Sift in a browser', () => {
  it('serves the web app with a content security policy that the whole flow below runs under', async () => {
    const res = await fetch(`${sift.url}/files`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('sends a visitor to the sign-in screen', async () => {
    await page.goto(`${sift.url}/search`);
    await page.waitForURL(`${sift.url}/login`);
    await page.getByRole('heading', { name: 'Welcome to Sift' }).waitFor();
    for (const feature of [
      'Search across multiple Excel files',
      'Export filtered data to Excel/CSV',
      'Advanced filtering and sorting',
    ]) {
      await page.getByText(feature).waitFor();
    }
    await app.screenshot('login');
  });

  it('signs in through the dev identity provider and completes the profile setup', async () => {
    await app.continueSignIn('admin@example.com', 'Ada Lovelace');

    // Back at the app: an admin starts active but must set up the profile.
    await app.profileSetup.shown();
    expect(new URL(page.url()).search).toBe(''); // the callback's code and state are gone
    await app.screenshot('profile-setup');
    // Both errors show at once and nothing is saved.
    await app.profileSetup.complete('', '');
    await app.sees('First name is required');
    await app.sees('Last name is required');

    await app.profileSetup.complete('Ada', 'Lovelace');

    // /dashboard is not a main-area route: the unknown-path rule lands on /files.
    await app.at('/files');
    await app.files.total(0);
    await app.sees('No files uploaded yet');

    // The persisted auth state holds the token and the admin permission.
    const state = await app.persistedAuth();
    expect(state?.token).toBeTruthy();
    expect(state?.permissions).toContain('admin:view');

    // The account menu shows the initials, name and email.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByText('admin@example.com').waitFor();
    // (The header names the person too, on small screens only.)
    await expect(page.getByRole('menu').getByText('Ada Lovelace').isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
  });

  it('renews an expired token silently on load (iframe, prompt=none) instead of signing out', async () => {
    const before = await page.evaluate(() => {
      const storage = (globalThis as unknown as { localStorage: PageStorage }).localStorage;
      const key = Object.keys(storage).find((k) => k.startsWith('oidc.user:'));
      if (!key) throw new Error('no OIDC user stored');
      const user = JSON.parse(storage.getItem(key) ?? '{}') as { access_token: string; expires_at: number };
      user.expires_at = Math.floor(Date.now() / 1000) - 60; // expired a minute ago
      storage.setItem(key, JSON.stringify(user));
      return user.access_token;
    });
    await page.reload();
    await app.files.total(0);
    expect(new URL(page.url()).pathname).toBe('/files');
    const after = (await app.persistedAuth())?.token;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });

  it(
    'uploads a Web of Science export and follows its upload session until it is complete',
    async () => {
      await app.open('Upload');
      await page.getByRole('heading', { name: 'Upload Files' }).waitFor();
      await app.upload.activeSessions(0);

      // The session may be processed between two polls, so whether it was shown while active is
      // recorded by the page itself rather than waited for.
      await page.evaluate(`(() => {
        const seen = () => {
          const text = document.body.innerText;
          if (text.includes('Active Upload Sessions (1)') || text.includes('All Active Upload Sessions'))
            window.__sawActiveSession = true;
        };
        new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
      })()`);

      // The file input is a real, labelled input (the drop zone is its label).
      await app.upload.choose(FIXTURE);

      await app.upload.waitUntilComplete(INGEST_TIMEOUT_MS);
      await expect(page.evaluate('window.__sawActiveSession === true')).resolves.toBe(true);
      await app.upload.activeSessions(0);
      await app.screenshot('upload');

      // The finished session keeps showing its files: the upload and the AUTHOR file derived from it.
      const done = app.upload.completedSessions();
      await done.getByRole('heading', { name: 'wos-savedrecs-small.xls' }).waitFor();
      await done.getByText('2 of 2 files processed').waitFor();
      await done.getByText('100.0%').waitFor();
      const files = done.getByRole('listitem');
      await expect.poll(() => files.count()).toBe(2);
      for (const [type, bar] of [
        ['GENERAL', 'wos-savedrecs-small.xls progress'],
        ['AUTHOR', 'wos-savedrecs-small.xls (AUTHOR) progress'],
      ] as const) {
        const file = files.filter({ hasText: 'wos-savedrecs-small.xls' }).filter({ hasText: type });
        await expect(file.count()).resolves.toBe(1);
        await file.getByText('Completed', { exact: true }).waitFor();
        await file.getByText('100%', { exact: true }).waitFor();
        await expect(
          file.getByRole('progressbar', { name: bar, exact: true }).getAttribute('aria-valuenow'),
        ).resolves.toBe('100');
      }
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('lists the file on /files', async () => {
    await app.open('Files');
    // The upload itself, plus the AUTHOR file derived from it (it has Authors and Email Addresses).
    const rows = app.files.rows('wos-savedrecs-small.xls');
    await app.files.total(2);
    await expect.poll(() => rows.filter({ hasText: 'PROCESSED' }).count()).toBe(2);
    await expect.poll(() => rows.filter({ hasText: 'AUTHOR' }).count()).toBe(1);
    await app.screenshot('files');
  });

  it('searches a column on /search and finds the row', async () => {
    await app.open('Search');

    // The initial search (no criteria) shows every record of the fixture.
    await app.sees('Showing 18 results');

    await app.search.columnInput('Article Title').fill('snakes');
    await app.search.run();

    await app.sees('Showing 1 result', { exact: true });
    await app.sees('Page 1 of 1');
    const rows = app.search.resultRows();
    const match = rows.filter({
      hasText: 'Sound garden: How snakes respond to airborne and groundborne sounds',
    });
    await match.waitFor();
    await expect(match.getByRole('gridcell').first().innerText()).resolves.toBe('wos-savedrecs-small.xls');
    await expect(rows.count()).resolves.toBe(2); // header + the one match
  });

  it("suggests a column's values while its input has the focus, and fills the input with one", async () => {
    const input = app.search.columnInput('Article Title');
    await input.fill('');
    await input.focus();
    const options = app.search.options();
    // Any values at first (the fixture has 18 titles: at most 10 are offered).
    await expect.poll(() => options.count()).toBe(10);
    await input.fill('GROUNDBORNE');
    const option = page.getByRole('option', {
      name: 'Sound garden: How snakes respond to airborne and groundborne sounds',
    });
    await option.waitFor();
    await expect(options.count()).resolves.toBe(1);
    await option.click();
    await expect(input.inputValue()).resolves.toBe(
      'Sound garden: How snakes respond to airborne and groundborne sounds',
    );
    await app.search.run();
    await app.sees('Showing 1 result', { exact: true });
  });

  it('suggests single authors in the Authors column, not whole author lists', async () => {
    const input = app.search.columnInput('Authors');
    await input.fill('staples');
    // Single names of the `;` lists (the fixture's cells hold up to ~20 authors each).
    await expect
      .poll(async () => (await app.search.options().allInnerTexts()).sort())
      .toEqual(['Staples, T', 'Staples, TL']);
    await app.screenshot('search-single-author-suggestions');
    await input.fill('');
    await page.keyboard.press('Escape');
  });

  it('chooses the visible columns in Column Settings', async () => {
    const chip = app.search.columnsChip();
    const [all] = (await chip.innerText()).split(' of ');
    await chip.click();
    const settings = app.search.columnSettings();
    await settings.getByText(`${all} of ${all} columns selected`).waitFor();

    await settings.getByRole('button', { name: 'Deselect All' }).click();
    await settings.getByText(`0 of ${all} columns selected`).waitFor();
    await expect(settings.getByText('Hidden', { exact: true }).count()).resolves.toBe(Number(all));

    // The filter narrows the list; Select All then checks just what it shows.
    await settings.getByRole('textbox', { name: 'Filter columns' }).fill('title');
    const shown = await settings.getByRole('checkbox').count();
    expect(shown).toBeGreaterThan(1);
    await settings.getByRole('button', { name: 'Select All', exact: true }).click();
    await settings.getByText(`${shown} of ${all} columns selected`).waitFor();
    await app.screenshot('column-settings');
    await settings.getByRole('button', { name: 'Close' }).click();

    await app.search.columnsChip(`${shown} of ${all} columns`).waitFor();
    const headers = await page.getByRole('grid').getByRole('columnheader').allInnerTexts();
    // File and Sheet, then only the chosen columns (those no row fills left out, and counted).
    expect(headers.slice(2).every((h) => /title/i.test(h))).toBe(true);
    const note = page.getByText(/^\d+ empty columns? hidden$/);
    const empty = (await note.count()) ? Number.parseInt(await note.innerText(), 10) : 0;
    expect(headers.length + empty).toBe(shown + 2);
    await expect(app.search.columnInput('Authors').count()).resolves.toBe(0);

    // Back to every column.
    await app.search.columnsChip(`${shown} of ${all} columns`).click();
    await settings.getByRole('button', { name: 'Select All', exact: true }).click();
    await settings.getByText(`${all} of ${all} columns selected`).waitFor();
    await settings.getByRole('button', { name: 'Close' }).click();
    // A column hidden and shown again keeps its text.
    await expect(app.search.columnInput('Article Title').inputValue()).resolves.toBe(
      'Sound garden: How snakes respond to airborne and groundborne sounds',
    );
  });

  it('exports the results as CSV', async () => {
    const download = await app.search.exportResults('CSV', 'snakes');
    expect(download.suggestedFilename()).toBe('snakes.csv');
    const file = await download.path();
    expect(file).toBeTruthy();
    exported = readFileSync(file);
    expect(exported.toString('utf8')).toContain('Sound garden: How snakes respond');
    await app.sees('Export completed successfully! Your file is being downloaded.');
    await app.screenshot('search');
  });

  it('exports the results as XLSX, values in cells', async () => {
    const download = await app.search.exportResults('Excel (XLSX)', 'snakes');
    expect(download.suggestedFilename()).toBe('snakes.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const title = header.indexOf('Article Title');
    expect(title).toBeGreaterThanOrEqual(0);
    expect(sheet.rowCount).toBe(2); // header + the one match
    expect(sheet.getRow(2).getCell(title + 1).value).toBe(
      'Sound garden: How snakes respond to airborne and groundborne sounds',
    );
  });

  it('lists the export on /exports, downloads the same bytes again and deletes it', async () => {
    await app.open('Exports');
    await page.getByRole('heading', { name: 'Export History' }).waitFor();
    const entry = app.exports.entry('snakes.csv');
    await entry.getByText(/^1 record • CSV • \d+ columns$/).waitFor();
    await app.screenshot('exports');

    const download = await app.exports.download('snakes.csv');
    expect(download.suggestedFilename()).toBe('snakes.csv');
    expect(readFileSync((await download.path())!).equals(exported)).toBe(true);
    await app.sees('Download started');
    // The toasts (top right) cover the row's buttons and pause while the pointer is on them.
    await page.mouse.move(10, 500);
    await page.getByText('Download started').waitFor({ state: 'hidden' });

    await app.exports.delete('snakes.csv');
    await app.sees('Successfully deleted "snakes.csv"');
    await app.exports
      .entry('snakes.xlsx')
      .getByText(/^1 record • XLSX • \d+ columns$/)
      .waitFor();
    await app.exports.delete('snakes.xlsx');
    await app.sees('No export history yet');
    await app.sees('Export search results to see them here');
  });

  it('previews a split rule and exports one row per author and email', async () => {
    await app.open('Search');
    // The search of before the visit to /exports is still there; Clear All shows every record.
    await app.sees('Showing 1 result', { exact: true });
    await app.search.clearAll();
    await app.sees('Showing 18 results');
    let processed = 0;
    const download = await app.search.exportResults('CSV', 'authors-split', async (dialog) => {
      await app.search.splitRule(dialog, 'Authors', 'Author Full Names');
      await dialog.getByRole('button', { name: 'Preview' }).click();

      const preview = dialog.getByRole('status', { name: 'Pre-processing preview' });
      const summary = await preview.getByText(/rows become/).innerText();
      const [, before, after] =
        /^(\d+) rows become ([\d,]+) rows after pre-processing\.$/.exec(summary) ?? [];
      expect(before).toBe('18');
      processed = Number(after!.replaceAll(',', ''));
      expect(processed).toBeGreaterThan(18); // several authors a record
      await expect(preview.getByRole('table').count()).resolves.toBe(2); // two examples
      await app.screenshot('export-preprocessing');
    });
    expect(download.suggestedFilename()).toBe('authors-split.csv');
    await app.open('Exports');
    const entry = app.exports.entry('authors-split.csv');
    await entry
      .getByText(new RegExp(`^${processed.toLocaleString('en-US')} records • CSV • \\d+ columns$`))
      .waitFor();
  });

  it('searches the AUTHOR file on /authors, one author a row, with suggestions and paging', async () => {
    await app.open('Authors');
    await page.getByRole('heading', { name: 'Authors Search' }).waitFor();
    await page.getByText('Tip: all author files are automatically included in your search').waitFor();

    // The initial search covers every author row: 17 pages of 20, so the go-to box shows.
    await page.getByText(/^Showing 1 to 20 of \d+ results$/).waitFor();
    await page.getByText(/^Page 1 of \d+$/).waitFor();
    const goTo = page.getByRole('textbox', { name: /^Go to page/ });
    await goTo.fill('3');
    await goTo.press('Enter');
    await page.getByText(/^Page 3 of \d+$/).waitFor();
    await page.getByText(/^Showing 41 to 60 of \d+ results$/).waitFor();
    await app.screenshot('authors');

    const authors = app.search.columnInput('Authors');
    await authors.focus();
    await expect.poll(() => app.search.options().count()).toBe(10);
    await authors.fill('Staples');
    await page.getByRole('option', { name: 'Staples, T', exact: true }).click();
    await app.sees('Filters Active');
    // 'Staples, T' is also part of 'Staples, TL' (substring search): a second column narrows it.
    await app.search.columnInput('Article Title').fill('sound garden');
    await app.search.run();
    await app.sees('Showing 1 result', { exact: true });
    const row = app.search.resultRows().filter({ hasText: 'Staples, T' });
    await expect(row.count()).resolves.toBe(1);
    await expect(row.innerText()).resolves.toContain('Sound garden: How snakes respond');
    await expect(app.search.resultRows().count()).resolves.toBe(2); // header + 1
    // Which file and sheet each author row came from, as on the Search screen.
    const header = await app.search.resultRows().first().innerText();
    expect(header.split(/\s*\n\s*/).slice(0, 2)).toEqual(['File', 'Sheet']);

    await app.search.clearAll();
    await expect(page.getByText('Filters Active').count()).resolves.toBe(0);
  });

  it('signs out', async () => {
    // The dev IdP's end-session page asks to confirm, then returns to the site origin.
    await app.signOut();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await app.persistedAuth()).toEqual({ token: null, permissions: [] });
  });

  it('threw no uncaught errors in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
