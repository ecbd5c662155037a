/**
 * The exports a publisher's staff download, uploaded in a real browser: a Web of Science plain-text
 * `savedrecs.txt`, a Scopus CSV and a Scopus RIS file in one upload session; each author's email is
 * then found in the Authors search, beside the author it belongs to. The same record uploaded again
 * is one search result until every copy is asked for.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../support/csv.ts';
import { SiftApp } from './support/app.ts';
import { INGEST_TIMEOUT_MS, openBrowserSession, type BrowserSession } from './support/session.ts';

let session: BrowserSession;
let app: SiftApp;
let page: Page;

beforeAll(async () => {
  session = await openBrowserSession();
  ({ app, page } = session);
  await app.signInNew('admin@example.com', 'Rosalind Franklin');
});

afterAll(async () => {
  await session?.close();
});

/** WoS "Plain text": tagged records, a list field's further lines indented by three spaces. */
const WOS_TEXT = [
  'FN Clarivate Analytics Web of Science',
  'VR 1.0',
  'PT J',
  'AU Nowak, B',
  '   Sørensen, L',
  'AF Nowak, Barbara',
  '   Sørensen, Lars',
  'TI Reading exports, exactly',
  'SO SCIENTOMETRICS',
  'EM lars.soerensen@ku.dk',
  'OI Sørensen, Lars/0000-0001-5109-3700',
  'PY 2024',
  'UT WOS:000000000000001',
  'ER',
  '',
  'PT J',
  'AU Sørensen, L',
  'AF Sørensen, Lars',
  'TI Counting authors, once',
  'SO J INFORMETR',
  'EM l.sorensen@bio.ku.dk',
  'OI Sørensen, Lars/0000-0001-5109-3700',
  'PY 2019',
  'UT WOS:000000000000002',
  'ER',
  '',
  'EF',
  '',
].join('\n');

/** A Scopus CSV (the layout since 2023): the email is in the correspondence address. */
const SCOPUS_CSV = [
  '\uFEFF"Authors","Author full names","Author(s) ID","Title","Year","Correspondence Address","EID"',
  '"Agarchand N.; Laishram B.","Agarchand, Nilesh (57194509304); Laishram, Boeing (35113532900)","57194509304; 35113532900","Public–private partnerships in urban transport","2017","B. Laishram; Department of Civil Engineering, IIT Guwahati, India; email: boeing@iitg.ernet.in","2-s2.0-85024117264"',
  '',
].join('\r\n');

/** A Scopus RIS file: the correspondence address is inside N1. */
const SCOPUS_RIS = [
  'TY  - JOUR',
  'AU  - McCluskey, E.',
  'AU  - Brewin, R.J.W.',
  'TI  - On the Seasonal Dynamics of Phytoplankton Chlorophyll-a Concentration',
  'PY  - 2022',
  'DO  - 10.3390/oceans3020011',
  'N1  - Export Date: 27 November 2023; Cited By: 6; Correspondence Address: R.J.W. Brewin; University of Exeter, Penryn, United Kingdom; email: r.brewin@exeter.ac.uk',
  'ER  - ',
  '',
].join('\r\n');

/**
 * Uploads `text` as the file `name` in an upload session of its own, and waits for that session's
 * own completion (the screen may still say an earlier session's 'Upload complete!'); the file is
 * removed afterwards (the browser reads it only while it uploads).
 */
async function uploadAlone(name: string, text: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-upload-'));
  try {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    await app.open('Upload');
    await app.upload.choose(file);
    await app.upload
      .completedSessions()
      .getByRole('heading', { name })
      .waitFor({ timeout: INGEST_TIMEOUT_MS });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Publisher exports in a browser', () => {
  it(
    'uploads a WoS plain-text file, a Scopus CSV and an RIS file in one upload session',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'sift-e2e-exports-'));
      try {
        const files = Object.entries({
          'savedrecs.txt': WOS_TEXT,
          'scopus.csv': SCOPUS_CSV,
          'scopus.ris': SCOPUS_RIS,
        }).map(([name, text]) => {
          const file = path.join(dir, name);
          writeFileSync(file, text);
          return file;
        });
        await app.open('Upload');
        await app.upload.choose(files);
        await app.upload.waitUntilComplete(INGEST_TIMEOUT_MS);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('finds each author by their email in the Authors search', async () => {
    await app.open('Authors');
    await page.getByRole('heading', { name: 'Authors Search' }).waitFor();
    for (const [email, author] of [
      ['lars.soerensen@ku.dk', 'Sørensen, L'],
      ['boeing@iitg.ernet.in', 'Laishram B.'],
      ['r.brewin@exeter.ac.uk', 'Brewin, R.J.W.'],
    ] as const) {
      await app.search.searchFor('Email Addresses', email);
      await app.sees('Showing 1 result', { exact: true });
      const rows = app.search.resultRows();
      await expect.poll(() => rows.count()).toBe(2); // header + 1
      const row = await rows.nth(1).innerText();
      expect(row).toContain(author);
      expect(row).toContain(email);
    }
  });

  it("finds a person on People by a name typed without accents, shows their page with each email's years, and exports them", async () => {
    await app.open('People');
    const table = page.getByRole('table', { name: 'People' });
    await table.waitFor();
    const box = page.getByRole('combobox', { name: 'Find people' });
    const find = async (text: string) => {
      await box.fill(text);
      await box.press('Enter');
    };
    // Suggested while typed (without accents).
    await box.fill('sorens');
    await page.getByRole('option', { name: 'Sørensen, Lars' }).waitFor();
    await find('sorensen');
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // header + 1
    await expect.poll(() => page.getByRole('option').count()).toBe(0); // closed by the search
    const person = await table.getByRole('row').nth(1).innerText();
    expect(person).toContain('Sørensen, Lars');
    expect(person).toContain('lars.soerensen@ku.dk');
    await app.screenshot('people-search');

    // His page: both emails, each with its year, the latest first; both entries.
    await table.getByRole('link', { name: 'Sørensen, Lars' }).click();
    await page.getByRole('heading', { name: 'Sørensen, Lars' }).waitFor();
    const emails = page.getByRole('table', { name: 'Emails' });
    await expect
      .poll(async () => (await emails.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split(/\s+/)))
      .toEqual([
        ['lars.soerensen@ku.dk', 'LATEST', '1', '2024'],
        ['l.sorensen@bio.ku.dk', '1', '2019'],
      ]);
    await expect
      .poll(() =>
        page
          .getByRole('table', { name: /^Entries/ })
          .getByRole('row')
          .count(),
      )
      .toBe(3);
    await page.getByText('ORCID', { exact: true }).waitFor();
    await app.screenshot('person-page');
    // An entry opens its record.
    await page.getByRole('button', { name: 'Open the record of Counting authors, once' }).click();
    const drawer = page.getByRole('dialog', { name: 'An entry of Sørensen, Lars' });
    await drawer.getByText('l.sorensen@bio.ku.dk').first().waitFor();
    await page.keyboard.press('Escape');

    // Back to the search, which is kept; the contact list of who was found: one row for him.
    await page.getByRole('link', { name: '← Back to People' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await box.inputValue()).toBe('sorensen');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export contacts (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^people-contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...contacts] = await parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(header!.slice(0, 4)).toEqual(['Name', 'Email', 'Other Emails', 'ORCID']);
    expect(contacts.map((c) => c.slice(0, 4))).toEqual([
      ['Sørensen, Lars', 'lars.soerensen@ku.dk', 'l.sorensen@bio.ku.dk', '0000-0001-5109-3700'],
    ]);
    await find('@KU.DK');
    await expect
      .poll(async () => (await table.getByRole('row').allInnerTexts()).slice(1))
      .toEqual([expect.stringContaining('lars.soerensen@ku.dk')]);
  });

  it(
    'reads a file again from its import report with the header row chosen there',
    async () => {
      // A short title row is taken for the header; the header is row 3.
      await uploadAlone('titled.csv', 'Export\nGenerated 2026-11-26\nName,Institute\nHopper,Yale\n');
      await app.open('Files');
      await page.getByRole('button', { name: 'Import report of titled.csv' }).click();
      const dialog = app.dialog('Import report: titled.csv');
      await dialog.getByText('CSV, 3 records').waitFor();
      const headerRow = dialog.getByRole('textbox', { name: 'Header row' });
      await headerRow.fill('3');
      await dialog.getByRole('button', { name: 'Read again' }).click();
      await app.sees('Reading titled.csv again');
      // The file is read again (its report button is back once it is PROCESSED): one record now,
      // under the real header.
      await expect
        .poll(
          async () => {
            const button = page.getByRole('button', { name: 'Import report of titled.csv' });
            if (!(await button.isVisible())) return '';
            await button.click();
            const again = app.dialog('Import report: titled.csv');
            const summary = await again
              .getByText(/^CSV, \d+ records?$/)
              .innerText()
              .catch(() => '');
            await page.keyboard.press('Escape');
            return summary;
          },
          { timeout: INGEST_TIMEOUT_MS, interval: 500 },
        )
        .toBe('CSV, 1 record');
      await app.open('Search');
      await app.search.searchFor('Institute', 'Yale');
      await app.sees('Showing 1 result', { exact: true });
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it(
    'shows a record exported twice once, and every copy when asked',
    async () => {
      // The same Scopus record again, from a later export (same DOI).
      await uploadAlone('scopus-again.ris', SCOPUS_RIS);
      await app.open('Search');
      // The copies are listed just after the file is searchable: search until they are.
      const everyCopy = page.getByRole('checkbox', { name: 'Show every copy' });
      await expect
        .poll(
          async () => {
            await app.search.searchFor('Title', 'Seasonal Dynamics');
            return everyCopy.isVisible();
          },
          { timeout: INGEST_TIMEOUT_MS, interval: 500 },
        )
        .toBe(true);
      await app.sees('Showing 1 result', { exact: true });
      await app.sees('1 copy of shown records left out');
      expect(await app.search.resultRows().nth(1).innerText()).toContain('scopus-again.ris');
      await everyCopy.check();
      await app.sees('Showing 2 results', { exact: true });
      expect(page.url()).toContain('copies=all');
    },
    INGEST_TIMEOUT_MS + 30_000,
  );

  it('threw no uncaught errors in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
