/**
 * Import reports (issue 23), through `GET /api/file/files/{id}/report`: a CSV's encoding and
 * delimiter, the header row used, columns renamed (blank or repeated headers), empty columns,
 * rows, widened rows as a warning; an AUTHOR file's pairing counts with examples; the report
 * scoped to its owner and gone with its file.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { authorFileId } from '@sift/shared/author-files';
import {
  importSummary,
  REPORT_LIST_MAX,
  type FileRecord,
  type ImportReport,
  type SearchResponse,
} from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';
import { waitFor } from './support/wait.ts';

let sift: RunningSift;
let user: ApiClient;
let other: ApiClient;

const text = (s: string) => new TextEncoder().encode(s);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Rita', 'Report');
  other = await ApiClient.approved(sift, user, 'other@example.com', 'Otto', 'Other');
});
afterAll(async () => {
  await sift?.close();
});

async function ingested(name: string, bytes: Uint8Array): Promise<FileRecord> {
  const [file] = await user.upload([{ name, bytes }]);
  const done = await user.waitForIngest(file!.id);
  expect(done.status).toBe('PROCESSED');
  return done;
}

/** The report of file `id`, once written (it follows the file's PROCESSED status closely). */
const reportOf = (id: string, client = user) =>
  waitFor(
    async () => {
      const res = await client.fetch(`/file/files/${id}/report`);
      return res.status === 200 ? ((await res.json()) as ImportReport) : null;
    },
    (r) => r !== null,
    { timeoutMs: 30_000, intervalMs: 100, what: `the import report of ${id}` },
  ) as Promise<ImportReport>;

it('says how a CSV was read: encoding, delimiter, header row, renamed and empty columns', async () => {
  const csv = [
    '',
    ';;',
    'Name;;Name;Empty;Year',
    'Ada;x;Lovelace;;1815',
    'Alan;y;Turing;;1912;extra',
    '',
  ].join('\n');
  const file = await ingested('people.csv', text(csv));
  const report = await reportOf(file.id);
  expect(report).toMatchObject({
    fileId: file.id,
    originalFilename: 'people.csv',
    format: 'csv',
    encoding: { name: 'utf-8', method: 'utf-8', confidence: 100 },
    delimiter: ';',
    totalRows: 2,
  });
  expect(report.sheets).toEqual([
    {
      name: 'people',
      headerRow: 3,
      rows: 2,
      columns: 6,
      renamedColumns: [
        { column: 2, from: '', to: 'Column 2' },
        { column: 3, from: 'Name', to: 'Name (2)' },
      ],
      renamedTotal: 2,
      emptyColumns: ['Empty'],
      emptyTotal: 1,
    },
  ]);
  expect(report.warnings).toEqual([
    'Sheet "people": some rows had more cells than the header row; 1 column was added for them.',
  ]);
  expect(report.authors).toBeUndefined();
});

it('lists at most REPORT_LIST_MAX renamed and empty columns of a sheet, and counts them all', async () => {
  // 20,000 blank headers over empty columns: listed whole, the report would not fit one insert.
  const blank = ','.repeat(20_000);
  const file = await ingested('very-wide.csv', text(`Name${blank}Last\nAda${blank}Lovelace\n`));
  const [sheet] = (await reportOf(file.id)).sheets;
  expect(sheet).toMatchObject({ columns: 20_001, renamedTotal: 19_999, emptyTotal: 19_999 });
  expect(sheet!.renamedColumns).toHaveLength(REPORT_LIST_MAX);
  expect(sheet!.renamedColumns[0]).toEqual({ column: 2, from: '', to: 'Column 2' });
  expect(sheet!.emptyColumns).toHaveLength(REPORT_LIST_MAX);
});

it('names a detected legacy encoding and how sure the detector was', async () => {
  const bytes = readFileSync(
    path.join(import.meta.dirname, 'fixtures', 'encodings', 'czech-windows-1250.csv'),
  );
  const file = await ingested('czech.csv', bytes);
  const report = await reportOf(file.id);
  expect(report.encoding).toMatchObject({ name: 'windows-1250', method: 'detector' });
  expect(report.encoding!.confidence).toBeGreaterThan(0);
  expect(report.sheets[0]).toMatchObject({
    headerRow: 1,
    rows: 24,
    columns: 5,
    renamedColumns: [],
    renamedTotal: 0,
    emptyColumns: [],
    emptyTotal: 0,
  });
  // Low confidence says what to do about garbled names.
  expect(report.warnings.some((w) => w.includes('save the file as UTF-8'))).toBe(
    report.encoding!.confidence < 10,
  );
});

it('warns when text did not read cleanly: replacement characters, or UTF-8 garbled before saving', async () => {
  // A BOM says UTF-8, but two names were saved in Latin-1 (ü and ö as single bytes).
  const mixed = Buffer.concat([
    Buffer.from('\uFEFFName,City\nM', 'utf8'),
    Buffer.from([0xfc]),
    Buffer.from('ller,Bonn\nGr', 'utf8'),
    Buffer.from([0xf6]),
    Buffer.from('ning,Kiel\nZhang,北京\n', 'utf8'),
  ]);
  // Valid UTF-8 holding text that was once UTF-8 read as Windows-1252.
  const mojibake = text('Name,City\nMÃ¼ller,KÃ¶ln\nSmith,Leeds\n');
  const clean = text('Name,City\nMüller,Köln\nZhang,北京\n');
  const reports = [];
  for (const [name, bytes] of [
    ['mixed.csv', mixed],
    ['mojibake.csv', mojibake],
    ['clean.csv', clean],
  ] as const) {
    reports.push(await reportOf((await ingested(name, bytes)).id));
  }
  const garbled = reports.map((r) => r.warnings.find((w) => w.includes('did not read cleanly')) ?? null);
  expect(garbled[0]).toMatch(/^2 characters in the first 64 KB did not read cleanly as utf-8/);
  expect(garbled[1]).toMatch(/^2 characters .* save the file as UTF-8 and upload it again\.$/);
  expect(garbled[2]).toBeNull();
});

it('reads a file again with the header row and encoding chosen from its report', async () => {
  // A short title row is taken for the header; the person says the header is row 3.
  const csv = 'Export\nGenerated 2026-11-26\nName,City\nMüller,Köln\nZhang,北京\n';
  const file = await ingested('titled.csv', text(csv));
  const before = await reportOf(file.id);
  expect([before.sheets[0]!.headerRow, file.columnNames]).toEqual([1, ['Export', 'Column 2']]);

  const reingest = (body: unknown) => user.sendJson(`/file/files/${file.id}/reingest`, body);
  const refused = await Promise.all(
    [{ encoding: 'klingon' }, { headerRows: { titled: 0 } }, { headerRows: { titled: 101 } }].map(
      async (b) => {
        const res = await reingest(b);
        return [res.status, ((await res.json()) as { error: string }).error];
      },
    ),
  );
  expect(refused).toEqual([
    [400, 'Sift does not know that encoding.'],
    [400, 'A header row is a row number from 1.'],
    [400, 'Choose a header row among the first 100 rows.'],
  ]);

  const res = await reingest({ headerRows: { titled: 3 } });
  expect(res.status).toBe(202);
  expect(((await res.json()) as FileRecord).status).toBe('PROCESSING');
  const again = await user.waitForIngest(file.id);
  expect(again).toMatchObject({ status: 'PROCESSED', totalRows: 2, columnNames: ['Name', 'City'] });
  const report = await waitFor(
    () => reportOf(file.id),
    (r) => r.sheets[0]!.headerRow === 3,
    { timeoutMs: 30_000, intervalMs: 100, what: 'the new report' },
  );
  expect(report.sheets[0]!.rows).toBe(2);

  // Read as Windows-1252 (wrongly, on purpose): the person's choice is what reads it, and says so.
  await reingest({ encoding: 'windows-1252', headerRows: { titled: 3 } });
  await waitFor(
    () => reportOf(file.id),
    (r) => r.encoding?.method === 'chosen',
    { timeoutMs: 30_000, intervalMs: 100, what: 'the report of the chosen encoding' },
  );
  const rows = await user.json<SearchResponse>('/file/search', { fileIds: [file.id] });
  expect(rows.data.map((r) => r['Name'])).toEqual(['MÃ¼ller', 'Zhang']);
  expect((await reportOf(file.id)).encoding).toMatchObject({ name: 'windows-1252', method: 'chosen' });

  // A row past the file's last is refused with what to do, and the file fails alone.
  await reingest({ headerRows: { titled: 50 } });
  const failed = await waitFor(
    () => user.json<FileRecord>(`/file/files/${file.id}`),
    (f) => f.status === 'FAILED',
    { timeoutMs: 30_000, intervalMs: 100, what: 'the failed re-ingest' },
  );
  expect(failed.errorMessage).toMatch(/no row with content at or after row 50.*choose another row/);

  // Without its original a file is not read again (its rows would go first): it stays as it is.
  const kept = await ingested('kept.csv', text('Name\nAda\n'));
  rmSync(path.join(sift.config.dataDir, 'blobs', kept.filename), { force: true });
  const missing = await user.sendJson(`/file/files/${kept.id}/reingest`, { headerRows: { kept: 1 } });
  expect(missing.status).toBe(409);
  expect(((await missing.json()) as { code: string }).code).toBe('ORIGINAL_MISSING');
  expect((await user.json<FileRecord>(`/file/files/${kept.id}`)).status).toBe('PROCESSED');
});

it('counts records exported twice: by DOI across files and sources, and by database id within a file', async () => {
  // A Web of Science export, then a Scopus export of an overlapping search (DOIs written differently).
  const wos = ['Article Title\tDOI\tUT (Unique WOS ID)']
    .concat(Array.from({ length: 6 }, (_, i) => `Paper ${i}\t10.1000/Sift.${i}\tWOS:00000000000000${i}`))
    .join('\n');
  const scopus = ['Title,DOI,EID']
    .concat(
      Array.from(
        { length: 4 },
        (_, i) => `Paper ${i + 4},https://doi.org/10.1000/sift.${i + 4},2-s2.0-${i + 4}`,
      ),
      ['No DOI,,2-s2.0-99', 'No DOI again,,2-s2.0-99', 'Nothing to go by,,'],
    )
    .join('\n');
  await ingested('copies-wos.txt', text(`${wos}\n`));
  const second = await ingested('copies-scopus.csv', text(`${scopus}\n`));
  const report = await reportOf(second.id);
  // Papers 4 and 5 are in the WoS file; 2-s2.0-99 is listed twice.
  expect(report.recordCopies).toEqual({ inFile: 1, inOtherFiles: 2 });
  expect(importSummary(report)).toBe('CSV, 7 records, 2 already in your other files, 1 twice in this file');
  expect(report.warnings).toContain(
    '2 records are already in your other files (the same DOI or database id): searches show each record once, from the newest upload, unless you ask for every copy.',
  );
});

it('counts how an AUTHOR file paired emails, with examples, for the file and its AUTHOR file', async () => {
  const csv = [
    'Authors,Email Addresses,Title',
    '"Smith, J; Muller, H","j.smith@uni.edu; h.muller@inst.org",One',
    '"Kowalski, A; Tanaka, B","first@x.org; second@y.org",Two',
    '"Rossi, C","nobody@z.org; c.rossi@z.org",Three',
    '"Silva, D",,Four',
  ].join('\n');
  const file = await ingested('wos.csv', text(`${csv}\n`));
  const report = await waitFor(
    () => reportOf(file.id),
    (r) => r.authors !== undefined,
    { timeoutMs: 30_000, intervalMs: 100, what: 'the pairing in the report' },
  );
  const pairing = report.authors!;
  expect(pairing).toMatchObject({ byName: 3, byPosition: 2, unmatched: 1, withoutEmail: 1 });
  expect(pairing.rows).toBe(pairing.byName + pairing.byPosition + pairing.unmatched + pairing.withoutEmail);
  expect(pairing.examples).toContainEqual({ match: 'name', author: 'Smith, J', email: 'j.smith@uni.edu' });
  expect(pairing.examples).toContainEqual({ match: 'position', author: 'Kowalski, A', email: 'first@x.org' });
  expect(pairing.examples).toContainEqual({ match: 'unmatched', author: '', email: 'nobody@z.org' });
  expect(await user.json<ImportReport>(`/file/files/${authorFileId(file.id)}/report`)).toEqual(report);
});

it('shows a report to its owner only, and removes it with its file', async () => {
  const file = await ingested('mine.csv', text('Name\nAda\n'));
  await reportOf(file.id);
  expect((await other.fetch(`/file/files/${file.id}/report`)).status).toBe(404);
  expect((await user.fetch(`/file/files/${file.id}`, { method: 'DELETE' })).status).toBe(204);
  const gone = await user.fetch(`/file/files/${file.id}/report`);
  expect(gone.status).toBe(404);
  expect(await sift.storage.importReports.listAll()).not.toContainEqual(
    expect.objectContaining({ id: file.id }),
  );
});
