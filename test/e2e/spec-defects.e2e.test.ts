/**
 * Spec defects a new user hit (issue 23), each used as a person would in a real browser: the Files
 * title counting every file, a selection across pages deleted by the server (issue 34), the Authors screen without author files, a paced upload counting the
 * files chosen rather than those sent so far, and no 'Upload complete!' toast for a session whose
 * tracking an administrator cleared; signing in from a loopback alias of the app's address, and
 * signing out straight back to the sign-in screen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRecord, UploadSessionSummary } from '@sift/shared/contracts';
import { SiftApp } from './support/app.ts';
import {
  INGEST_TIMEOUT_MS,
  openBrowserSession,
  SCREENSHOTS,
  type BrowserSession,
} from './support/session.ts';

let session: BrowserSession;
let app: SiftApp;
let page: Page;
let dir: string;
/** Files on the account so far. */
let fileCount = 0;

beforeAll(async () => {
  session = await openBrowserSession();
  ({ app, page } = session);
  dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-defects-'));
  await app.signInNew('admin@example.com', 'Ada Lovelace');
});

afterAll(async () => {
  await session?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Small CSV files without author columns, written to the scratch directory. */
function csvFiles(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `${prefix}-${String(i + 1).padStart(2, '0')}.csv`);
    writeFileSync(file, `Name,City\n${prefix} ${i},Paris\n`);
    return file;
  });
}

/** Calls Sift's API with the signed-in browser's token (a deadline on every call). */
async function api<T>(pathname: string, init: RequestInit = {}): Promise<T> {
  const auth = await app.persistedAuth();
  const res = await fetch(`${app.url}/api${pathname}`, {
    ...init,
    headers: { authorization: `Bearer ${auth?.token}` },
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`${pathname}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Uploads files through the API in one request and waits until every one is PROCESSED. */
async function uploadThroughApi(files: string[]): Promise<void> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([readFileSync(file)]), path.basename(file));
  await api('/file/upload-multiple', { method: 'POST', body: form });
  fileCount += files.length;
  for (;;) {
    const all = await api<FileRecord[]>('/file/files');
    if (all.length === fileCount && all.every((f) => f.status === 'PROCESSED')) return;
    if (all.some((f) => f.status === 'FAILED')) throw new Error('an upload failed');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The results summary line: 'Showing 1 to 20 of 25 results', 'Showing 2 results'. */
const SHOWING = /^Showing \d[\d,]*( to [\d,]+ of [\d,]+)? results?$/;

describe('Spec defects, in a browser', () => {
  it(
    'counts every file in the Files title, on every page',
    async () => {
      await uploadThroughApi(csvFiles('city', 21));
      await page.reload(); // sent past the app, which has not looked again
      await app.open('Files');
      await app.files.total(21);
      await app.sees('Page 1 of 2');
      await app.page
        .getByRole('navigation', { name: 'Files pages' })
        .getByRole('button', { name: 'Next' })
        .click();
      await app.sees('Page 2 of 2');
      await app.files.total(21);
      await app.page.getByRole('button', { name: 'Select all 21 files' }).waitFor();
      await app.screenshot('files-title-page-2');
    },
    INGEST_TIMEOUT_MS,
  );

  it(
    'deletes a selection across pages in one server deletion, the selection visible and undoable',
    async () => {
      const select = (name: string) => page.getByRole('button', { name, exact: true });
      // On page 2 (of 20 and 1 files), where the test before left the screen.
      await select('Select all 21 files').click();
      await app.sees('21 selected (20 on other pages)', { exact: true });
      // Unticking this page leaves the other page's files selected, and says so; Clear selection undoes it.
      await page.getByRole('checkbox', { name: 'Select all files on this page' }).click();
      await app.sees('20 selected (20 on other pages)', { exact: true });
      await select('Clear selection').click();
      await app.sees('0 selected', { exact: true });
      // The 20 files of page 1, selected from page 2.
      await select('Select all 21 files').click();
      await page.getByRole('checkbox', { name: 'Select all files on this page' }).click();
      const kept = (await api<FileRecord[]>('/file/files')).at(-1)!;
      await select('Delete Selected').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
      await app.sees('Successfully deleted 20 file(s)');
      await app.files.total(1);
      expect((await api<FileRecord[]>('/file/files')).map((f) => f.id)).toEqual([kept.id]);
      fileCount = 1;
      await app.screenshot('files-deleted-in-the-server');
    },
    INGEST_TIMEOUT_MS,
  );

  it('shows the Authors screen without author files with its chip, buttons and hint', async () => {
    await app.open('Authors');
    await app.sees('No author files found', { exact: false });
    await app.sees('Select files to see available columns.');
    await app.sees('No columns available / No pre-processed files found');
    const chip = app.search.columnsChip('0 of 0 columns');
    expect(await chip.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Export Results' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
    await app.screenshot('authors-without-author-files');
  });

  it(
    'counts the files chosen in a paced upload, not only those sent so far',
    async () => {
      // Files go one at a time in groups of two; the second group is held back until the screen has
      // been read: the session then holds two files of three.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let batches = 0;
      await page.route('**/api/parallel/upload-batch/**', async (route: Route) => {
        if (++batches > 2) await held;
        await route.continue();
      });
      try {
        await app.open('Upload');
        await app.upload.choose(csvFiles('paced', 3));
        await app.sees(/pausing between files/);
        // In the list of sessions and in the detail of the one shown.
        await page.getByText('2 of 3 files processed').first().waitFor({ timeout: INGEST_TIMEOUT_MS });
        await app.screenshot('upload-paced-2-of-3');
        expect(await page.getByText(/ of 2 files processed/).count()).toBe(0);
      } finally {
        release();
      }
      fileCount += 3;
      await app.upload.waitUntilComplete(INGEST_TIMEOUT_MS);
    },
    INGEST_TIMEOUT_MS * 2,
  );

  it(
    'says on Search that the index is being rebuilt, its results complete meanwhile',
    async () => {
      await app.open('Search');
      await app.sees(SHOWING);
      const summary = await page.getByText(SHOWING).innerText();
      await app.openAdmin('System Admin');
      const rebuild = 'Rebuild ClickHouse Index';
      await page.getByRole('button', { name: rebuild }).click();
      await app.dialog(rebuild).getByRole('button', { name: rebuild }).click();
      await app.sees(
        /^ClickHouse Reindex queued: \d+ file\(s\) will be read again; searches stay complete meanwhile$/,
      );
      // The card follows the ingest queue.
      await expect(page.getByRole('status', { name: 'Reindex progress' }).innerText()).resolves.toMatch(
        /^(\d+ of \d+ file\(s\) read again; \d+ being read, \d+ waiting|Reindex done: \d+ file\(s\) read again)\./,
      );
      await app.open('Search');
      const notice = page.getByRole('status').filter({ hasText: 'The search index is being rebuilt' });
      await notice.waitFor();
      await expect(notice.innerText()).resolves.toMatch(/\d+ of \d+ of your files read again/);
      // Nothing left the results while it runs.
      expect(await page.getByText(SHOWING).innerText()).toBe(summary);
      await app.screenshot('search-reindex-notice');
      await notice.waitFor({ state: 'detached', timeout: INGEST_TIMEOUT_MS });
      expect(await page.getByText(SHOWING).innerText()).toBe(summary);
    },
    INGEST_TIMEOUT_MS * 2,
  );

  it(
    'claims no completed upload when an administrator clears the tracking of one',
    async () => {
      await app.openAdmin('System Admin');
      const rebuild = 'Rebuild ClickHouse Index';
      // The reindex session, seen active (with files) by the app's own poll of active sessions.
      const seenActive = page.waitForResponse(
        async (res) =>
          res.url().endsWith('/api/upload-tracking/sessions/summary') &&
          ((await res.json()) as UploadSessionSummary[]).some(
            (s) => s.session.sessionName === 'Reindex' && s.files.length > 0 && !s.session.isCompleted,
          ),
        { timeout: INGEST_TIMEOUT_MS },
      );
      await page.getByRole('button', { name: rebuild }).click();
      await app.dialog(rebuild).getByRole('button', { name: rebuild }).click();
      // Queued, not done: the toast says so (it once said "completed" while every search was empty).
      await app.sees(
        /^ClickHouse Reindex queued: \d+ file\(s\) will be read again; searches stay complete meanwhile$/,
      );
      await seenActive;
      // Cleared while it runs: the next poll no longer lists it and its summary is gone (404).
      const gone = page.waitForResponse(
        (res) => /\/api\/upload-tracking\/sessions\/[^/]+\/summary$/.test(res.url()) && res.status() === 404,
        { timeout: INGEST_TIMEOUT_MS },
      );
      await page.getByRole('button', { name: 'Clear Upload Tracking' }).click();
      await app
        .dialog('Clear Upload Tracking')
        .getByRole('button', { name: 'Clear Upload Tracking' })
        .click();
      await gone;
      // The toast would follow the 404 at once; one more poll of the active sessions later it has not.
      await page.waitForResponse((res) => res.url().endsWith('/api/upload-tracking/sessions/summary'));
      expect(await page.getByText('Upload complete! All files processed successfully.').count()).toBe(0);
      await app.screenshot('admin-clear-tracking-no-toast');
    },
    INGEST_TIMEOUT_MS * 2,
  );

  it("shows the person's name and whole type and status badges on a 390 px wide screen", async () => {
    const phone = await session.context.newPage();
    try {
      session.track(phone);
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${app.url}/files`);
      await phone.getByRole('heading', { name: `All Files (${fileCount} total)` }).waitFor();
      // The header names the person (spec: on small screens the header shows the name).
      await phone.getByRole('banner').getByText('Ada Lovelace', { exact: true }).waitFor();
      const labels = phone.locator('table .mantine-Badge-label');
      await labels.first().waitFor();
      const cut = await labels.evaluateAll((els) =>
        els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent),
      );
      expect(cut).toEqual([]);
      expect(await labels.count()).toBeGreaterThan(0);
      await phone.screenshot({ path: `${SCREENSHOTS}/files-390px.png` });
      // At desktop width, beside a failed file's long reason, too.
      const form = new FormData();
      form.append('files', new Blob(['Name\nAda\n']), 'not-a-workbook.xlsx');
      await api('/file/upload-multiple', { method: 'POST', body: form });
      fileCount += 1;
      await phone.setViewportSize({ width: 1280, height: 800 });
      await phone.reload();
      await phone.getByRole('heading', { name: `All Files (${fileCount} total)` }).waitFor();
      await phone.getByText('is not an Excel workbook', { exact: false }).first().waitFor();
      const cutWide = await labels.evaluateAll((els) =>
        els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent),
      );
      expect(cutWide).toEqual([]);
      await phone.screenshot({ path: `${SCREENSHOTS}/files-failed-1280px.png` });
    } finally {
      await phone.close();
    }
  });

  it('signs in from the loopback address, which leads to the configured origin', async () => {
    const { context, page: other } = await session.newTab();
    try {
      const alias = app.url.replace('//localhost:', '//127.0.0.1:');
      expect(alias).not.toBe(app.url);
      await other.goto(`${alias}/login`);
      const visitor = new SiftApp(other, app.url, SCREENSHOTS);
      await visitor.at('/login');
      await visitor.continueSignIn('admin@example.com', 'Ada Lovelace');
      await visitor.at('/files');
      await visitor.files.total(fileCount);
      await visitor.screenshot('signed-in-from-loopback-alias');
    } finally {
      await context.close();
    }
  });

  it('signs out back to the sign-in screen without a stop at the identity provider', async () => {
    await app.signOut();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(new URL(page.url()).origin).toBe(app.url);
  });

  it('raised no uncaught error in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
