/**
 * The search results grid in a real browser (issue 23): a 1,000-row page of 100+ columns drawn as
 * it scrolls, the first column pinned, a column resized, a row's drawer, the grid at 390 px; sorting
 * the rows by a column from its header, files imported from an SFTP location, on the engine, across pages; the search kept in the URL (reload, Back and Forward, a
 * shared link); matches marked in the cells; saved searches; accent-insensitive matching; facets; a legacy encoding read and reported; the export's split by name; a link opened by another account.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../support/csv.ts';
import { startTestSftp, type TestSftpServer } from '../support/file-servers.ts';
import { SiftApp } from './support/app.ts';
import { INGEST_TIMEOUT_MS, openBrowserSession, type BrowserSession } from './support/session.ts';

let session: BrowserSession;
let app: SiftApp;
let page: Page;
let dir: string;
let sftp: TestSftpServer;

beforeAll(async () => {
  sftp = await startTestSftp();
  session = await openBrowserSession({
    importLocation: {
      url: sftp.url,
      privateKey: sftp.privateKey,
      hostKeyFingerprint: sftp.hostKeyFingerprint,
    },
  });
  ({ app, page } = session);
  dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-grid-'));
  await app.signInNew('admin@example.com', 'Ada Lovelace');
});

afterAll(async () => {
  await session?.close();
  await sftp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The Name cell of each result row, in order. */
async function namesShown(): Promise<string[]> {
  const table = page.getByRole('grid', { name: /^Search results/ });
  const header = await table.getByRole('columnheader').allTextContents();
  const at = header.indexOf('Name');
  const rows = await table.getByRole('row').all();
  const names: string[] = [];
  for (const row of rows.slice(1)) names.push((await row.getByRole('gridcell').nth(at).textContent()) ?? '');
  return names;
}

/** Drags the edge of the results grid's `column` header `dx` px to the right, as a mouse would. */
async function dragEdge(column: string, dx: number): Promise<void> {
  const grid = page.getByRole('grid', { name: /^Search results/ });
  const edge = (await grid.getByRole('separator', { name: `Resize ${column}` }).boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + dx, edge.y + edge.height / 2, { steps: 8 });
  await page.mouse.up();
}

describe('Results grid, in a browser', () => {
  it(
    'sorts the results by a column from its header, ascending then descending',
    async () => {
      const file = path.join(dir, 'people.csv');
      // 25 rows: two pages of 20; the names in file order are not sorted.
      const names = Array.from({ length: 25 }, (_, i) => `Person ${String((i * 7) % 25).padStart(2, '0')}`);
      writeFileSync(file, `Name,City\n${names.map((n) => `${n},Paris`).join('\n')}\n`);
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await app.open('Search');
      await app.sees('Showing 1 to 20 of 25 results');

      const nameHeader = page.getByRole('columnheader', { name: 'Name' });
      await nameHeader.getByRole('button', { name: 'Name' }).click();
      await page.locator('[role="columnheader"][aria-sort="ascending"]').waitFor();
      await expect.poll(namesShown).toEqual([...names].sort().slice(0, 20));
      await app.screenshot('search-sorted-ascending');

      await nameHeader.getByRole('button', { name: 'Name' }).click();
      await page.locator('[role="columnheader"][aria-sort="descending"]').waitFor();
      await expect.poll(namesShown).toEqual([...names].sort().reverse().slice(0, 20));
      // The second page goes on in the same order.
      await page.getByRole('button', { name: 'Next' }).first().click();
      await expect.poll(namesShown).toEqual([...names].sort().reverse().slice(20));
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('keeps the search in the URL: a reload keeps it, Back returns to the one before', async () => {
    const sorted = [...Array(25).keys()].map((i) => `Person ${String((i * 7) % 25).padStart(2, '0')}`).sort();
    // Where the last test left the screen: sorted descending, page 2 (the URL follows the screen).
    const params = () => {
      const q = new URL(page.url()).searchParams;
      return [q.get('sort'), q.get('order'), q.get('page')];
    };
    await expect.poll(params).toEqual(['Name', 'desc', '2']);
    await page.reload();
    await page.locator('[role="columnheader"][aria-sort="descending"]').waitFor();
    await app.sees('Showing 21 to 25 of 25 results');
    await expect.poll(namesShown).toEqual([...sorted].reverse().slice(20));

    await page.goBack();
    await app.sees('Showing 1 to 20 of 25 results');
    await expect.poll(namesShown).toEqual([...sorted].reverse().slice(0, 20));
    await page.goForward();
    await app.sees('Showing 21 to 25 of 25 results');
  });

  it('opens a shared link: its criteria in the inputs, matches marked, unknown files dropped', async () => {
    const link = `${app.url}/search?q.Name=person+0&include=not-a-file-of-this-account&sort=Name`;
    await page.goto(link);
    await app.sees('Showing 10 results');
    expect(await app.search.columnInput('Name').inputValue()).toBe('person 0');
    await page.getByRole('button', { name: 'All files' }).waitFor();
    const marks = await page
      .getByRole('grid', { name: /^Search results/ })
      .locator('mark')
      .allTextContents();
    expect(marks).toHaveLength(10);
    expect(new Set(marks)).toEqual(new Set(['Person 0']));
    await expect.poll(namesShown).toEqual(Array.from({ length: 10 }, (_, i) => `Person 0${i}`));
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor(); // not 'Searching...'
    await app.screenshot('search-shared-link-highlighted');
  });

  it('saves the search under a name, opens it again after Clear All, and deletes it', async () => {
    // Where the last test left the screen: 'person 0', sorted by Name.
    await page.getByRole('button', { name: 'Save search' }).click();
    const dialog = app.dialog('Save search');
    await dialog.getByLabel('Name').fill('Early people');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Saved searches (1)' }).waitFor();

    await app.search.clearAll();
    await app.sees('Showing 1 to 20 of 25 results');
    await page.getByRole('button', { name: 'Saved searches (1)' }).click();
    await page.getByRole('listitem', { name: 'Early people' }).getByText('Early people').click();
    await app.sees('Showing 10 results');
    expect(await app.search.columnInput('Name').inputValue()).toBe('person 0');
    await page.locator('[role="columnheader"][aria-sort="ascending"]').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('q.Name')).toBe('person 0');

    await page.getByRole('button', { name: 'Saved searches (1)' }).click();
    await page.getByRole('button', { name: 'Delete Early people' }).click();
    await page.getByRole('button', { name: 'Saved searches (0)' }).waitFor();
  });

  it(
    'finds every spelling of a name regardless of accents, or only the exact one on request',
    async () => {
      const file = path.join(dir, 'accents.csv');
      const spellings = ['Müller, Hans', 'MÜLLER, Anna', 'Muller, Paul', 'Sørensen, Kim', 'Sorensen, Lars'];
      writeFileSync(file, `Name,City\n${spellings.map((n) => `"${n}",Oslo`).join('\n')}\n`);
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await app.open('Search');
      await app.search.searchFor('Name', 'muller');
      await app.sees('Showing 3 results');
      const marks = () =>
        page
          .getByRole('grid', { name: /^Search results/ })
          .locator('mark')
          .allTextContents();
      await expect.poll(marks).toEqual(['Müller', 'MÜLLER', 'Muller']);
      await page.getByRole('button', { name: 'Search', exact: true }).waitFor(); // not 'Searching...'
      await app.screenshot('search-accent-insensitive');

      const option = page.getByRole('checkbox', { name: 'Match accents' });
      await option.check();
      await app.sees('Showing 1 result', { exact: true });
      await expect.poll(namesShown).toEqual(['Muller, Paul']);
      expect(new URL(page.url()).searchParams.get('accents')).toBe('exact');
      await page.reload();
      await app.sees('Showing 1 result', { exact: true });
      expect(await page.getByRole('checkbox', { name: 'Match accents' }).isChecked()).toBe(true);

      await page.getByRole('checkbox', { name: 'Match accents' }).uncheck();
      await app.search.columnInput('Name').fill('SORENSEN');
      await app.search.columnInput('Name').press('Escape');
      await app.search.run();
      await app.sees('Showing 2 results');
      await expect.poll(namesShown).toEqual(['Sørensen, Kim', 'Sorensen, Lars']);
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it(
    'shows facets of the results; clicking a value searches for exactly that value',
    async () => {
      const file = path.join(dir, 'papers.csv');
      const years = ['2021', '2021', '2021', '2020', '2020', '2019'];
      const lines = years.map((y, i) => `Paper ${i},${y},${i % 2 ? 'Review' : 'Article'}`);
      writeFileSync(file, `Title,Publication Year,Document Type\n${lines.join('\n')}\n`);
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await app.open('Search');
      await app.search.clearAll();
      const facet = (column: string) => page.getByRole('group', { name: `${column} facet` });
      const labels = (column: string) =>
        facet(column)
          .getByRole('button')
          .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
      // The usual low-cardinality columns are chosen at first; rows without the column have no value.
      await expect
        .poll(() => labels('Publication Year'))
        .toEqual([
          'Publication Year: 2021, 3 rows',
          'Publication Year: 2020, 2 rows',
          'Publication Year: 2019, 1 row',
        ]);
      await expect
        .poll(() => labels('Document Type'))
        .toEqual(['Document Type: Article, 3 rows', 'Document Type: Review, 3 rows']);
      await page.getByRole('button', { name: 'Search', exact: true }).waitFor(); // not 'Searching...'
      await app.screenshot('search-facets');

      await facet('Publication Year').getByRole('button', { name: 'Publication Year: 2020, 2 rows' }).click();
      await app.sees('Showing 2 results', { exact: true });
      // The value whole, in double quotes: the rows the facet counted, not every year containing it.
      expect(await app.search.columnInput('Publication Year').inputValue()).toBe('"2020"');
      expect(new URL(page.url()).searchParams.get('q.Publication Year')).toBe('"2020"');
      await expect
        .poll(() => labels('Document Type'))
        .toEqual(['Document Type: Article, 1 row', 'Document Type: Review, 1 row']);
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it(
    'reads a Windows-1250 file, finds its names without accents, and reports how it was read',
    async () => {
      const file = path.join(dir, 'czech.csv');
      copyFileSync(
        path.join(import.meta.dirname, '..', 'fixtures', 'encodings', 'czech-windows-1250.csv'),
        file,
      );
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await app.open('Search');
      await app.search.searchFor('Autor', 'dvorak');
      await app.sees('Showing 5 results', { exact: true });
      await expect
        .poll(() =>
          page
            .getByRole('grid', { name: /^Search results/ })
            .locator('mark')
            .allTextContents(),
        )
        .toEqual(Array(5).fill('Dvořák'));

      await app.open('Files');
      await page.getByRole('button', { name: 'Import report of czech.csv' }).click();
      const dialog = app.dialog('Import report: czech.csv');
      const read = dialog.getByRole('table', { name: 'How the file was read' });
      await expect
        .poll(() => read.getByRole('row').allInnerTexts())
        .toContainEqual(expect.stringMatching(/^Encoding\s+windows-1250 \(detected, \d+% sure\)$/));
      expect(await read.getByRole('row').allInnerTexts()).toContainEqual(
        expect.stringMatching(/^Delimiter\s+Comma$/),
      );
      const sheet = dialog.getByRole('table', { name: 'Sheets' }).getByRole('row').nth(1);
      expect((await sheet.getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['czech', '1', '24', '5']);
      // Once the dialog's opening transitions have ended (not endless ones, like a spinner's).
      await page.evaluate(
        `Promise.all(document.getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)))`,
      );
      await app.screenshot('files-import-report');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it(
    'exports one row per author and email, the emails paired by name on request',
    async () => {
      const file = path.join(dir, 'wos-emails.csv');
      writeFileSync(
        file,
        'Authors,Email Addresses,Title\n"Kim, J; Okafor, N; Silva, P","nokafor@uni.ng; p.silva@usp.br",Pairing\n',
      );
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await app.open('Search');
      await app.search.searchFor('Title', 'Pairing');
      await app.sees('Showing 1 result', { exact: true });
      // The export offers the columns the screen shows: wait until they include the new file's
      // (the column list is fetched again after the upload, which takes a while on a loaded machine).
      await app.search.columnInput('Email Addresses').waitFor();
      const download = await app.search.exportResults('CSV', 'paired-by-name', async (dialog) => {
        const rule = await app.search.splitRule(dialog, 'Authors', 'Email Addresses');
        await rule.getByLabel('Pair by name').check();
        await dialog.getByRole('button', { name: 'Preview' }).click();
        const preview = dialog.getByRole('status', { name: 'Pre-processing preview' });
        await preview.getByText('1 rows become 3 rows after pre-processing.').waitFor();
        const pairs = await preview.getByRole('row').allInnerTexts();
        expect(pairs.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
          ['Authors', 'Email Addresses'],
          ['Kim, J', ''],
          ['Okafor, N', 'nokafor@uni.ng'],
          ['Silva, P', 'p.silva@usp.br'],
        ]);
        await app.screenshot('export-pair-by-name');
      });
      const [header, ...records] = await parseCsv(readFileSync((await download.path())!, 'utf8'));
      const [a, e] = [header!.indexOf('Authors'), header!.indexOf('Email Addresses')];
      expect(records.map((r) => [r[a], r[e]])).toEqual([
        ['Kim, J', ''],
        ['Okafor, N', 'nokafor@uni.ng'],
        ['Silva, P', 'p.silva@usp.br'],
      ]);
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it(
    "opens a link another account shared over the reader's own files",
    async () => {
      const token = (await app.persistedAuth())?.token;
      const res = await page.request.get(`${app.url}/api/file/files`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const mine = (await res.json()) as { id: string; originalFilename: string }[];
      const people = mine.find((f) => f.originalFilename === 'people.csv')!;
      const link = `${app.url}/search?q.Name=person+0&include=${people.id}&sort=Name&order=desc`;

      const { context: other, page: readerPage, app: reader } = await session.newTab();
      try {
        await reader.signIn('reader@example.com', 'Grace Hopper');
        await reader.sees('Your account is inactive and awaiting administrator approval.');
        await app.openAdmin('Accounts');
        await app.adminAccounts
          .row('reader@example.com')
          .getByRole('button', { name: /^Activate / })
          .click();
        await app.sees('Account activated successfully');
        await readerPage.getByRole('button', { name: 'Recheck Status' }).click();
        await reader.profileSetup.shown();
        await reader.profileSetup.complete('Grace', 'Hopper');
        await reader.at('/files');
        const file = path.join(dir, 'readers-people.csv');
        writeFileSync(file, 'Name,City\nPerson 01,Rome\nPerson 02,Oslo\nPerson 11,Lima\n');
        await reader.uploadFile(file, INGEST_TIMEOUT_MS);

        // The admin's file id means nothing here: the reader's own files are searched, same criteria and sort.
        await readerPage.goto(link);
        await reader.sees('Showing 2 results', { exact: true });
        await readerPage.getByRole('button', { name: 'All files' }).waitFor();
        expect(await reader.search.columnInput('Name').inputValue()).toBe('person 0');
        await readerPage.locator('[role="columnheader"][aria-sort="descending"]').waitFor();
        const cells = await readerPage
          .getByRole('grid', { name: /^Search results/ })
          .getByRole('row')
          .evaluateAll((rows) => rows.slice(1).map((r) => r.textContent ?? ''));
        expect(cells.map((c) => /Person \d+/.exec(c)?.[0])).toEqual(['Person 02', 'Person 01']);
        await reader.screenshot('search-shared-link-other-account');
      } finally {
        await other.close();
      }
    },
    INGEST_TIMEOUT_MS + 60_000,
  );

  it(
    'shows a 1,000-row page of 112 columns as a grid: drawn as it scrolls, first column pinned, resizable, a row drawer',
    async () => {
      const file = path.join(dir, 'grid-wide.csv');
      const columns = [
        'Grid Key',
        ...Array.from({ length: 110 }, (_, i) => `Col ${String(i + 1).padStart(3, '0')}`),
      ];
      const lines = Array.from({ length: 1_200 }, (_, r) =>
        [
          `grid-${String(r + 1).padStart(4, '0')}`,
          ...columns.slice(1).map((_, c) => `r${r + 1}c${c + 1}`),
        ].join(','),
      );
      writeFileSync(file, `${columns.join(',')}\n${lines.join('\n')}\n`);
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      await page.goto(`${app.url}/search?q.Grid+Key=grid-`);
      await app.sees('Showing 1 to 20 of 1200 results');
      await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('1000');
      await app.sees('Showing 1 to 1000 of 1200 results');
      expect(new URL(page.url()).searchParams.get('size')).toBe('1000');

      const table = page.getByRole('grid', { name: /^Search results/ });
      const scroller = table;
      expect(await table.getAttribute('aria-rowcount')).toBe('1001');
      // Only the rows in view (and a few beyond) are in the page.
      const drawn = await table.getByRole('row').count();
      expect(drawn).toBeGreaterThan(10);
      expect(drawn).toBeLessThan(80);
      await app.screenshot('results-grid-1000-rows');

      // The last row and the last column, drawn once scrolled to; the File column stays in view.
      await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight, left: el.scrollWidth }));
      const last = table.locator('[role="row"][aria-rowindex="1001"]');
      await last.waitFor();
      expect(await last.innerText()).toContain('r1000c110');
      await table.getByRole('columnheader', { name: 'Col 110' }).waitFor();
      const box = (await scroller.boundingBox())!;
      const fileCell = (await last.getByRole('gridcell').first().boundingBox())!;
      expect(Math.abs(fileCell.x - box.x)).toBeLessThan(3);
      expect(await last.getByRole('gridcell').first().innerText()).toBe('grid-wide.csv');
      await app.screenshot('results-grid-scrolled-pinned');

      // A column widened by dragging its header's edge, once the loading veil (shown at least
      // MIN_LOADING_MS) is gone: on a fast machine it still covered the grid here.
      await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      await scroller.evaluate((el) => el.scrollTo({ top: 0, left: 0 }));
      const header = table.getByRole('columnheader', { name: 'Grid Key' });
      await header.scrollIntoViewIfNeeded();
      const before = (await header.boundingBox())!.width;
      await dragEdge('Grid Key', 120);
      const after = (await header.boundingBox())!.width;
      expect(after - before).toBeGreaterThan(100);
      const firstRow = table.locator('[role="row"][aria-rowindex="2"]');
      expect((await firstRow.getByRole('gridcell').nth(2).boundingBox())!.width).toBeCloseTo(after, 0);

      // A row's drawer: where it came from and every field, the searched one marked.
      await firstRow.getByRole('button', { name: 'Open row 1' }).click();
      const drawer = page.getByRole('dialog', { name: 'Row 1 of the results' });
      await drawer.waitFor();
      const source = await drawer
        .getByRole('table', { name: 'Where this record came from' })
        .getByRole('row')
        .allInnerTexts();
      expect(source.map((r) => r.replace(/\s+/g, ' '))).toEqual([
        'File grid-wide.csv',
        expect.stringMatching(/^Sheet/),
        'Row in sheet 2',
      ]);
      const fields = drawer.getByLabel('Fields');
      expect(await fields.locator('dt').count()).toBe(111);
      expect(await fields.locator('mark').allInnerTexts()).toEqual(['grid-']);
      expect(await fields.locator('dd').last().innerText()).toBe('r1c110');
      await app.screenshot('results-grid-row-drawer');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      // The focus goes back to the grid, on that row.
      await expect.poll(() => page.locator(':focus').getAttribute('role')).toBe('grid');

      // At 390 px: the grid scrolls sideways inside its box, the pinned column stays, the drawer fills the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        const narrow = (await scroller.boundingBox())!;
        expect(narrow.width).toBeLessThanOrEqual(390);
        expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
        await scroller.evaluate((el) => el.scrollTo({ left: 2_000 }));
        const pinned = (await firstRow.getByRole('gridcell').first().boundingBox())!;
        expect(Math.abs(pinned.x - narrow.x)).toBeLessThan(3);
        await app.screenshot('results-grid-390px');
        await firstRow.getByRole('button', { name: 'Open row 1' }).click();
        await drawer.waitFor();
        expect((await drawer.boundingBox())!.width).toBeGreaterThan(380);
        await app.screenshot('results-grid-row-drawer-390px');
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
      } finally {
        await page.setViewportSize({ width: 1400, height: 900 });
      }
    },
    INGEST_TIMEOUT_MS + 60_000,
  );

  it(
    'puts the results first: a compact criteria bar, matched and filled columns first, the grid one Tab stop, widths kept',
    async () => {
      const file = path.join(dir, 'wide-people.csv');
      const fields = Array.from({ length: 30 }, (_, i) => `Field ${String(i + 1).padStart(2, '0')}`);
      const columns = ['Record', ...fields, 'Email Addresses', 'Country'];
      const lines = Array.from({ length: 12 }, (_, r) =>
        [
          `rec-${r + 1}`,
          // Odd fields blank in every row: 15 empty columns.
          ...fields.map((_, f) => (f % 2 ? '' : `v${r + 1}.${f + 1}`)),
          r % 3 ? `person${r + 1}@ku.dk` : `person${r + 1}@uni.edu`,
          'Denmark',
        ].join(','),
      );
      writeFileSync(file, `${columns.join(',')}\n${lines.join('\n')}\n`);
      await app.uploadFile(file, INGEST_TIMEOUT_MS);
      // One file in scope: its 33 columns alone.
      await page.goto(`${app.url}/search`);
      await app.search.clearAll();
      await app.search.filterFile('include', 'wide-people.csv');

      // A compact criteria bar: a few inputs, a column picker and the way to every input.
      const inputs = page.locator('input[placeholder^="Search in "]');
      await page.getByRole('button', { name: 'All 33 inputs' }).waitFor();
      expect(await inputs.count()).toBeLessThanOrEqual(4);
      expect(await app.search.columnInput('Email Addresses').count()).toBe(1);
      await app.search.addColumn('Country');
      // The picked column's input has the focus: typed into and submitted from the keyboard.
      await expect
        .poll(() => page.evaluate(`document.activeElement?.getAttribute('placeholder')`))
        .toBe('Search in Country');
      await page.keyboard.type('denmark');
      await page.keyboard.press('Escape');
      await app.search.columnInput('Email Addresses').fill('ku.dk');
      await app.search.columnInput('Email Addresses').press('Escape');
      await app.search.run();
      await app.sees('Showing 8 results', { exact: true });

      // The searched columns first, then those the rows fill; the empty ones left out until asked for.
      const grid = page.getByRole('grid', { name: /^Search results/ });
      const headers = () => grid.getByRole('columnheader').allInnerTexts();
      await expect
        .poll(async () => (await headers()).slice(0, 5))
        .toEqual(['File', 'Sheet', 'Country', 'Email Addresses', 'Record']);
      expect(await headers()).not.toContain('Field 02');
      await app.sees('15 empty columns hidden');
      await app.screenshot('search-results-first');
      await page.getByRole('button', { name: 'Show empty columns' }).click();
      await grid.getByRole('columnheader', { name: 'Field 02' }).waitFor();
      await page.getByRole('button', { name: 'Hide empty columns' }).click();
      await grid.getByRole('columnheader', { name: 'Field 02' }).waitFor({ state: 'detached' });

      // A width set by dragging is this person's: kept over a reload (dragged once the search's
      // loading state, held at least 1 s, is gone).
      await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      const header = grid.getByRole('columnheader', { name: 'Record' });
      const before = (await header.boundingBox())!.width;
      await dragEdge('Record', 90);
      const widened = (await header.boundingBox())!.width;
      expect(widened - before).toBeGreaterThan(60);
      // Keyboard: from the top of the page, the grid is a few Tab presses away, and one Tab stop.
      await page.evaluate('window.scrollTo(0, 0)');
      await page.getByRole('link', { name: 'Sift' }).first().focus();
      const focusedRole = () =>
        page.evaluate<string | null>(`document.activeElement?.getAttribute('role') ?? null`);
      let presses = 0;
      while (presses < 60 && (await focusedRole()) !== 'grid') {
        await page.keyboard.press('Tab');
        presses += 1;
      }
      expect(presses).toBeLessThan(40);
      // Or past the form at once: the first Tab stop after the navigation skips to the results.
      await page.getByRole('link', { name: 'Sift' }).first().focus();
      let toSkip = 0;
      while (
        toSkip < 20 &&
        (await page.evaluate(`document.activeElement?.textContent`)) !== 'Skip to results'
      ) {
        await page.keyboard.press('Tab');
        toSkip += 1;
      }
      expect(toSkip).toBeLessThan(12);
      await page.keyboard.press('Enter');
      await expect.poll(focusedRole).toBe('grid');
      // Ctrl+Home: the first row's first cell.
      await page.keyboard.press('Control+Home');
      const active = () =>
        page.evaluate<string | null>(
          `document.getElementById(document.activeElement?.getAttribute('aria-activedescendant') ?? '')?.textContent ?? null`,
        );
      expect(await active()).toBe('wide-people.csv');
      // Right twice: Country; down once: the second row's.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      expect(await active()).toBe('Denmark');
      await page.keyboard.press('ArrowRight');
      expect(await active()).toMatch(/^person\d+@ku\.dk$/);
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Row 2 of the results' });
      await drawer.waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      await expect.poll(focusedRole).toBe('grid');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(`!!document.activeElement?.closest('[role="grid"]')`)).toBe(false);

      await page.reload();
      await app.sees('Showing 8 results', { exact: true });
      await expect
        .poll(async () => Math.round((await header.boundingBox())!.width))
        .toBe(Math.round(widened));
    },
    INGEST_TIMEOUT_MS + 60_000,
  );

  it(
    'imports the files chosen from the configured SFTP location, which are then searchable',
    async () => {
      writeFileSync(
        path.join(sftp.dir, 'remote-people.csv'),
        'Name,City\nRemote Ada,London\nRemote Alan,Wilmslow\n',
      );
      writeFileSync(path.join(sftp.dir, 'remote-other.csv'), 'Name\nNobody Remote\n');
      writeFileSync(path.join(sftp.dir, 'readme.pdf'), 'not offered');
      await app.open('Upload');
      const panel = page.getByRole('region', { name: 'Import from a server' });
      const location = sftp.url.replace(/\/\/[^@]+@/, '//');
      await panel.getByText(`Excel and CSV files at ${location}`).waitFor();
      expect(await panel.getByRole('checkbox').count()).toBe(2);
      await panel.getByRole('checkbox', { name: 'remote-people.csv' }).check();
      await panel.getByText('Files to import (1 of 2 selected)').waitFor();
      await app.screenshot('upload-import-from-server');
      await panel.getByRole('button', { name: 'Import Selected (1)' }).click();
      await app.sees(`Importing 1 file from ${location}`);
      await app.upload.waitUntilComplete(INGEST_TIMEOUT_MS);

      await page.goto(`${app.url}/search?q.Name=remote`);
      await app.sees('Showing 2 results', { exact: true });
      const cities = await page
        .getByRole('grid', { name: /^Search results/ })
        .getByRole('row')
        .evaluateAll((rows) => rows.slice(1).map((r) => r.textContent ?? ''));
      expect(cities.map((c) => /London|Wilmslow/.exec(c)?.[0])).toEqual(['London', 'Wilmslow']);
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('raised no uncaught error in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
