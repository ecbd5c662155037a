/**
 * The walking skeleton in a real browser (Debian's Chromium through playwright-core): sign in through
 * the built-in dev identity provider, complete the profile setup, upload a real Web of Science
 * export on /upload and follow its upload session until it is complete, search one column on
 * /search, export the results, and sign out. Needs the built web app (`npm run build -w web`) and a
 * reachable Redis.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSift, type RunningSift } from '@sift/api';
import { fixture } from '../support/fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const FIXTURE = fixture('wos-savedrecs-small.xls');
/** The larger Web of Science export (469 records, with emails), uploaded later with two CSV files. */
const EMAILS_FIXTURE = fixture('wos-savedrecs-emails.xls');
const EMAILS_RECORDS = 469;
const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/** Screenshots of each main screen, for a person to look at (not committed). */
const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** Generous: the first ingest also creates the ClickHouse tables. */
const INGEST_TIMEOUT_MS = 90_000;

let sift: RunningSift;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dataDir: string;
const pageErrors: string[] = [];
/** The bytes of the CSV export as first downloaded (the history download must equal them). */
let exported: Buffer;

async function screenshot(name: string, target: Page = page): Promise<void> {
  await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs in through the dev identity provider's form (api/src/auth/dev-idp.ts). */
async function signIn(target: Page, email: string, name: string): Promise<void> {
  await target.goto(`${sift.url}/login`);
  await target.getByRole('button', { name: 'Sign In' }).click();
  await target.waitForURL(/\/idp\/interaction\//);
  await target.getByLabel('Email').fill(email);
  await target.getByLabel('Full name').fill(name);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

/** A column's search input (an input with suggestions, labelled with the column's name). */
function columnInput(column: string) {
  return page
    .getByRole('combobox', { name: column, exact: true })
    .or(page.getByRole('textbox', { name: column, exact: true }));
}

/**
 * Exports the current results through the export dialog: `prepare` may set the dialog up first
 * (pre-processing); then the format and filename are chosen and the download awaited.
 */
async function exportResults(
  format: 'CSV' | 'Excel (XLSX)',
  filename: string,
  prepare?: (dialog: Locator) => Promise<void>,
): Promise<Download> {
  await page.getByRole('button', { name: 'Export Results' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export Results' });
  await prepare?.(dialog);
  await dialog.getByLabel(format).check();
  await dialog.getByLabel('Filename (optional)').fill(filename);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  return download;
}

/** Opens an entry of the header's Admin menu. */
async function openAdmin(entry: 'Accounts' | 'System Admin'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** The page's local storage (this tsconfig has no DOM types; the callbacks run in the browser). */
interface PageStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The SPA's persisted auth state (`persist:root`). */
async function persistedAuth(): Promise<{ token: string | null; permissions: string[] } | undefined> {
  const raw = await page.evaluate<string | null>("localStorage.getItem('persist:root')");
  return (JSON.parse(raw ?? '{}') as { state?: { token: string | null; permissions: string[] } }).state;
}

beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`The web app is not built (${WEB_DIST}): run \`npm run build -w web\` first.`);
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);

  // Isolated like the integration tests: own data directory, ClickHouse database and queue prefix.
  dataDir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-'));
  const id = randomUUID().replaceAll('-', '');
  sift = await startSift({
    port: 0,
    dataDir,
    clickhouseDatabase: `e2e_${id}`,
    queuePrefix: `sift-e2e-${id}`,
    webDir: WEB_DIST,
    publicUrl: undefined,
    oidcIssuer: undefined,
  });

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  context.setDefaultTimeout(20_000);
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await sift?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
    await screenshot('login');
  });

  it('signs in through the dev identity provider and completes the profile setup', async () => {
    await page.getByRole('button', { name: 'Sign In' }).click();

    // The dev IdP's own form (api/src/auth/dev-idp.ts): fields `email` and `name`.
    await page.waitForURL(/\/idp\/interaction\//);
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back at the app: an admin starts active but must set up the profile.
    await page.getByText("Let's get you set up").waitFor();
    expect(new URL(page.url()).search).toBe(''); // the callback's code and state are gone
    await screenshot('profile-setup');
    const firstName = page.getByLabel('First Name');
    const lastName = page.getByLabel('Last Name');

    // Both errors show at once and nothing is saved.
    await firstName.fill('');
    await lastName.fill('');
    await page.getByRole('button', { name: 'Complete Setup' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByText('Last name is required').waitFor();

    await firstName.fill('Ada');
    await lastName.fill('Lovelace');
    await page.getByRole('button', { name: 'Complete Setup' }).click();

    // /dashboard is not a main-area route: the unknown-path rule lands on /files.
    await page.waitForURL(`${sift.url}/files`);
    await page.getByRole('heading', { name: 'All Files (0 total)' }).waitFor();
    await page.getByText('No files uploaded yet').waitFor();

    // The persisted auth state holds the token and the admin permission.
    const state = await persistedAuth();
    expect(state?.token).toBeTruthy();
    expect(state?.permissions).toContain('admin:view');

    // The account menu shows the initials, name and email.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByText('admin@example.com').waitFor();
    await expect(page.getByText('Ada Lovelace').isVisible()).resolves.toBe(true);
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
    await page.getByRole('heading', { name: 'All Files (0 total)' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/files');
    const after = (await persistedAuth())?.token;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });

  it(
    'uploads a Web of Science export and follows its upload session until it is complete',
    async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click();
      await page.waitForURL(`${sift.url}/upload`);
      await page.getByRole('heading', { name: 'Upload Files' }).waitFor();
      await page.getByRole('heading', { name: 'Active Upload Sessions (0)' }).waitFor();

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
      await page.getByLabel('Drag files here or click to browse').setInputFiles(FIXTURE);

      await page
        .getByText('Upload complete! All files processed successfully.')
        .waitFor({ timeout: INGEST_TIMEOUT_MS });
      await expect(page.evaluate('window.__sawActiveSession === true')).resolves.toBe(true);
      await page.getByRole('heading', { name: 'Active Upload Sessions (0)' }).waitFor();
      await screenshot('upload');

      // The finished session keeps showing its files: the upload and the AUTHOR file derived from it.
      const done = page.getByRole('region', { name: 'Completed Upload Sessions' });
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
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.waitForURL(`${sift.url}/files`);
    // The upload itself, plus the AUTHOR file derived from it (it has Authors and Email Addresses).
    const rows = page.getByRole('row').filter({ hasText: 'wos-savedrecs-small.xls' });
    await page.getByRole('heading', { name: 'All Files (2 total)' }).waitFor();
    await expect.poll(() => rows.filter({ hasText: 'PROCESSED' }).count()).toBe(2);
    await expect.poll(() => rows.filter({ hasText: 'AUTHOR' }).count()).toBe(1);
    await screenshot('files');
  });

  it('searches a column on /search and finds the row', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(`${sift.url}/search`);

    // The initial search (no criteria) shows every record of the fixture.
    await page.getByText('Showing 18 results').waitFor();

    await columnInput('Article Title').fill('snakes');
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    await page.getByText('Showing 1 result', { exact: true }).waitFor();
    await page.getByText('Page 1 of 1').waitFor();
    const rows = page.getByRole('table').getByRole('row');
    const match = rows.filter({
      hasText: 'Sound garden: How snakes respond to airborne and groundborne sounds',
    });
    await match.waitFor();
    await expect(match.getByRole('cell').first().innerText()).resolves.toBe('wos-savedrecs-small.xls');
    await expect(rows.count()).resolves.toBe(2); // header + the one match
  });

  it("suggests a column's values while its input has the focus, and fills the input with one", async () => {
    const input = page
      .getByRole('combobox', { name: 'Article Title', exact: true })
      .or(page.getByRole('textbox', { name: 'Article Title', exact: true }));
    await input.fill('');
    await input.focus();
    const options = page.getByRole('option');
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
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Showing 1 result', { exact: true }).waitFor();
  });

  it('chooses the visible columns in Column Settings', async () => {
    const chip = page.getByRole('button', { name: /^\d+ of \d+ columns$/ });
    const [all] = (await chip.innerText()).split(' of ');
    await chip.click();
    const settings = page.getByRole('dialog', { name: 'Column Settings' });
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
    await screenshot('column-settings');
    await settings.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: `${shown} of ${all} columns` }).waitFor();
    const headers = await page.getByRole('table').getByRole('columnheader').allInnerTexts();
    // File and Sheet, then only the chosen columns.
    expect(headers.slice(2).every((h) => /title/i.test(h))).toBe(true);
    expect(headers).toHaveLength(shown + 2);
    await expect(columnInput('Authors').count()).resolves.toBe(0);

    // Back to every column.
    await page.getByRole('button', { name: `${shown} of ${all} columns` }).click();
    await settings.getByRole('button', { name: 'Select All', exact: true }).click();
    await settings.getByText(`${all} of ${all} columns selected`).waitFor();
    await settings.getByRole('button', { name: 'Close' }).click();
    // A column hidden and shown again keeps its text.
    await expect(columnInput('Article Title').inputValue()).resolves.toBe(
      'Sound garden: How snakes respond to airborne and groundborne sounds',
    );
  });

  it('exports the results as CSV', async () => {
    const download = await exportResults('CSV', 'snakes');
    expect(download.suggestedFilename()).toBe('snakes.csv');
    const file = await download.path();
    expect(file).toBeTruthy();
    exported = readFileSync(file);
    expect(exported.toString('utf8')).toContain('Sound garden: How snakes respond');
    await page.getByText('Export completed successfully! Your file is being downloaded.').waitFor();
    await screenshot('search');
  });

  it('exports the results as XLSX, values in cells', async () => {
    const download = await exportResults('Excel (XLSX)', 'snakes');
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
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
    await page.waitForURL(`${sift.url}/exports`);
    await page.getByRole('heading', { name: 'Export History' }).waitFor();
    const entry = page.getByRole('listitem', { name: 'snakes.csv' });
    await entry.getByText(/^1 record • CSV • \d+ columns$/).waitFor();
    await screenshot('exports');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      entry.getByRole('button', { name: 'Download snakes.csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('snakes.csv');
    expect(readFileSync((await download.path())!).equals(exported)).toBe(true);
    await page.getByText('Download started').waitFor();
    // The toasts (top right) cover the row's buttons and pause while the pointer is on them.
    await page.mouse.move(10, 500);
    await page.getByText('Download started').waitFor({ state: 'hidden' });

    await entry.getByRole('button', { name: 'Delete snakes.csv' }).click();
    await page.getByRole('dialog', { name: 'Delete export' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Successfully deleted "snakes.csv"').waitFor();
    await page
      .getByRole('listitem', { name: 'snakes.xlsx' })
      .getByText(/^1 record • XLSX • \d+ columns$/)
      .waitFor();
    await page.getByRole('button', { name: 'Delete snakes.xlsx' }).click();
    await page.getByRole('dialog', { name: 'Delete export' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No export history yet').waitFor();
    await page.getByText('Export search results to see them here').waitFor();
  });

  it('previews a split rule and exports one row per author and email', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(`${sift.url}/search`);
    // The search of before the visit to /exports is still there; Clear All shows every record.
    await page.getByText('Showing 1 result', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Clear All' }).click();
    await page.getByText('Showing 18 results').waitFor();
    let processed = 0;
    const download = await exportResults('CSV', 'authors-split', async (dialog) => {
      await dialog.getByLabel('Enable pre-processing').check();
      const rule = dialog.getByRole('group', { name: 'Rule 1' });
      await rule.getByLabel('Source column', { exact: true }).first().click();
      await page.getByRole('option', { name: 'Authors', exact: true }).click();
      await rule.getByLabel('Target column', { exact: true }).first().click();
      await page.getByRole('option', { name: 'Author Full Names', exact: true }).click();
      await dialog.getByRole('button', { name: 'Preview' }).click();

      const preview = dialog.getByRole('status', { name: 'Pre-processing preview' });
      const summary = await preview.getByText(/rows become/).innerText();
      const [, before, after] =
        /^(\d+) rows become ([\d,]+) rows after pre-processing\.$/.exec(summary) ?? [];
      expect(before).toBe('18');
      processed = Number(after!.replaceAll(',', ''));
      expect(processed).toBeGreaterThan(18); // several authors a record
      await expect(preview.getByRole('table').count()).resolves.toBe(2); // two examples
      await screenshot('export-preprocessing', page);
    });
    expect(download.suggestedFilename()).toBe('authors-split.csv');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
    const entry = page.getByRole('listitem', { name: 'authors-split.csv' });
    await entry
      .getByText(new RegExp(`^${processed.toLocaleString('en-US')} records • CSV • \\d+ columns$`))
      .waitFor();
  });

  it('searches the AUTHOR file on /authors, one author a row, with suggestions and paging', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Authors' }).click();
    await page.waitForURL(`${sift.url}/authors`);
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
    await screenshot('authors');

    const authors = columnInput('Authors');
    await authors.focus();
    await expect.poll(() => page.getByRole('option').count()).toBe(10);
    await authors.fill('Staples');
    await page.getByRole('option', { name: 'Staples, T', exact: true }).click();
    await page.getByText('Filters Active').waitFor();
    // 'Staples, T' is also part of 'Staples, TL' (substring search): a second column narrows it.
    await columnInput('Article Title').fill('sound garden');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Showing 1 result', { exact: true }).waitFor();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: 'Staples, T' });
    await expect(row.count()).resolves.toBe(1);
    await expect(row.innerText()).resolves.toContain('Sound garden: How snakes respond');
    await expect(page.getByRole('table').getByRole('row').count()).resolves.toBe(2); // header + 1

    await page.getByRole('button', { name: 'Clear All' }).click();
    await expect(page.getByText('Filters Active').count()).resolves.toBe(0);
  });

  it('uploads the other Web of Science export and two CSV files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-upload-'));
    try {
      const csvs = ['contacts-a.csv', 'contacts-b.csv'].map((name) => {
        const file = path.join(dir, name);
        writeFileSync(file, `Name,Email\nAda,ada@example.com\n${name},x@example.com\n`);
        return file;
      });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click();
      await page.getByLabel('Drag files here or click to browse').setInputFiles([EMAILS_FIXTURE, ...csvs]);
      await page
        .getByText('Upload complete! All files processed successfully.')
        .waitFor({ timeout: INGEST_TIMEOUT_MS });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('narrows the search to included files, or leaves excluded ones out', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(`${sift.url}/search`);
    const everything = 18 + EMAILS_RECORDS + 2 + 2;
    await page.getByText(`Showing 1 to 20 of ${everything} results`).waitFor();

    const picker = page.getByRole('button', { name: 'All files' });
    await picker.click();
    await page.getByRole('group', { name: 'Files to include' }).getByLabel('contacts-a.csv').check();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '1 file included' }).waitFor();
    await page.getByText('Showing 2 results').waitFor();
    // The columns offered are those of the included file.
    await page.getByRole('button', { name: '2 of 2 columns' }).waitFor();
    await screenshot('search-file-filter');

    // Switching the mode clears the list; excluding the small Web of Science export leaves the rest.
    await page.getByText('Exclude', { exact: true }).click();
    await page.getByRole('button', { name: 'All files' }).click();
    await page.getByRole('group', { name: 'Files to exclude' }).getByLabel('wos-savedrecs-small.xls').check();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '1 file excluded' }).waitFor();
    await page.getByText(`Showing 1 to 20 of ${EMAILS_RECORDS + 4} results`).waitFor();

    await page.getByRole('button', { name: '1 file excluded' }).click();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByText(`Showing 1 to 20 of ${everything} results`).waitFor();
  });

  it('deletes selected files in bulk on /files', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'All Files (6 total)' }).waitFor();
    await page.getByText('Page 1 of 1').waitFor();

    // The page's checkbox selects all six; the same again clears them.
    const pageBox = page.getByRole('checkbox', { name: 'Select all files on this page' });
    await pageBox.check();
    await page.getByText('6 selected').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).waitFor();
    await pageBox.uncheck();
    await page.getByText('0 selected').waitFor();
    await expect(page.getByRole('button', { name: 'Delete Selected' }).isDisabled()).resolves.toBe(true);

    await page.getByRole('checkbox', { name: 'Select contacts-a.csv' }).check();
    await page.getByRole('checkbox', { name: 'Select contacts-b.csv' }).check();
    await expect(
      pageBox.evaluate((box) => (box as unknown as { indeterminate: boolean }).indeterminate),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: 'Delete Selected' }).click();
    await page
      .getByRole('dialog', { name: 'Delete selected files' })
      .getByText('Are you sure you want to delete 2 file(s)? This action cannot be undone.')
      .waitFor();
    await page
      .getByRole('dialog', { name: 'Delete selected files' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('Successfully deleted 2 file(s)').waitFor();
    await page.getByRole('heading', { name: 'All Files (4 total)' }).waitFor();
    await expect(page.getByRole('row').filter({ hasText: 'contacts-' }).count()).resolves.toBe(0);
    await page.getByText('0 selected').waitFor();
  });

  it('lets an admin activate a new account, which then reaches the profile setup', async () => {
    const other = await browser.newContext({ viewport: { width: 375, height: 812 } });
    try {
      const reader = await other.newPage();
      reader.on('pageerror', (error) => pageErrors.push(error.message));
      await signIn(reader, 'reader@example.com', 'Grace Hopper');
      await reader.getByText('Your account is inactive and awaiting administrator approval.').waitFor();
      await reader.getByText('Inactive', { exact: true }).waitFor();
      await screenshot('awaiting-approval', reader);

      await openAdmin('Accounts');
      await page.waitForURL(`${sift.url}/admin`);
      await page.getByRole('heading', { name: 'User Accounts' }).waitFor();
      await page.getByText('2 of 2 accounts').waitFor();
      await page.getByText('Inactive Only', { exact: true }).click();
      await expect(page.getByRole('radio', { name: 'Inactive Only' }).isChecked()).resolves.toBe(true);
      await page.getByText('1 of 1 accounts').waitFor();
      const row = page.getByRole('row').filter({ hasText: 'reader@example.com' });
      await row.getByText('Inactive', { exact: true }).waitFor();
      await row.getByText('Pending', { exact: true }).waitFor();
      await screenshot('admin-accounts');
      await row.getByRole('button', { name: /^Activate / }).click();
      await page.getByText('Account activated successfully').waitFor();
      // Under 'Inactive Only' the activated account leaves the list.
      await page.getByText('No accounts found').waitFor();
      await page.getByText('Try adjusting your filter criteria').waitFor();

      await reader.getByRole('button', { name: 'Recheck Status' }).click();
      await reader.getByText('Status checked successfully').waitFor();
      await reader.getByText("Let's get you set up").waitFor();
      await reader.getByLabel('First Name').fill('Grace');
      await reader.getByLabel('Last Name').fill('Hopper');
      await reader.getByRole('button', { name: 'Complete Setup' }).click();
      await reader.waitForURL(`${sift.url}/files`);

      // Without admin:view the admin routes lead back to /files, and there is no Admin menu.
      await reader.goto(`${sift.url}/admin/system`);
      await reader.waitForURL(`${sift.url}/files`);
      await reader.getByRole('heading', { name: 'All Files (0 total)' }).waitFor();
      await screenshot('files-small-screen', reader);
      await reader.getByRole('button', { name: 'Open navigation' }).click();
      await reader.getByRole('menuitem', { name: 'Exports' }).waitFor();
      await screenshot('navigation-small-screen', reader);
      await expect(reader.getByRole('menuitem', { name: 'System Admin' }).count()).resolves.toBe(0);

      // The admin deactivates, then deletes the account (the confirmation names its email).
      await page.getByText('All Accounts', { exact: true }).click();
      await page.getByText('2 of 2 accounts').waitFor();
      await row.getByRole('button', { name: /^Deactivate / }).click();
      await page.getByText('Account deactivated successfully').waitFor();
      await row.getByText('Inactive', { exact: true }).waitFor();
      await row.getByRole('button', { name: /^Delete / }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete account' });
      await confirm.getByText(/reader@example\.com/).waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Account deleted successfully').waitFor();
      await page.getByText('1 of 1 accounts').waitFor();
    } finally {
      await other.close();
    }
  });

  it('deletes all files and data after two confirmations and the typed phrase', async () => {
    await openAdmin('System Admin');
    await page.waitForURL(`${sift.url}/admin/system`);
    await page.getByRole('heading', { name: 'System Admin' }).waitFor();
    await screenshot('admin-system');

    const typeAndConfirm = async (text: string) => {
      await page.getByRole('button', { name: 'DELETE ALL FILES AND DATA' }).click();
      await page
        .getByRole('dialog', { name: 'Delete all files and data?' })
        .getByRole('button', { name: 'Continue' })
        .click();
      await page
        .getByRole('dialog', { name: 'Are you absolutely sure?' })
        .getByRole('button', { name: 'Yes, continue' })
        .click();
      const typed = page.getByRole('dialog', { name: 'Type to confirm' });
      await typed.getByLabel('Type DELETE ALL to confirm').fill(text);
      await typed.getByRole('button', { name: 'Delete Everything' }).click();
    };

    // Anything but the exact phrase cancels, and nothing is deleted.
    await typeAndConfirm('delete all');
    await page.getByText('Mass deletion cancelled - confirmation text did not match').waitFor();
    await expect(page.getByRole('status', { name: 'Mass deletion result' }).count()).resolves.toBe(0);

    await typeAndConfirm('DELETE ALL');
    await page.getByText('Mass deletion completed successfully').waitFor();
    const result = page.getByRole('status', { name: 'Mass deletion result' });
    // The two fixtures and the AUTHOR files derived from them.
    await expect(result.getByRole('row', { name: /File records deleted/ }).innerText()).resolves.toMatch(
      /\b4$/,
    );
    await expect(result.getByRole('row', { name: /Upload tracking cleared/ }).innerText()).resolves.toMatch(
      /Yes$/,
    );
    await screenshot('admin-system-mass-delete');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'All Files (0 total)' }).waitFor();
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    // The dev IdP's end-session page asks to confirm, then returns to the site origin.
    await page.getByRole('heading', { name: 'Sign out of Sift?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL(`${sift.url}/login`);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await persistedAuth()).toEqual({ token: null, permissions: [] });
  });

  it('threw no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
