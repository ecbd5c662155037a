/**
 * Export pre-processing on the Web of Science export with emails: the preview's counts
 * equal what the rule means when computed straight from the fixture (read here with SheetJS), and
 * the export with the rule has exactly that many rows, recorded in the history.
 */
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  ExportHistoryEntry,
  ExportRequest,
  FileRecord,
  PreprocessingPreview,
} from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { ApiClient, startTestSift } from './support/sift.ts';

const FIXTURE = fixture('wos-savedrecs-emails.xls');
let sift: RunningSift;
let user: ApiClient;
let file: FileRecord;

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Pre', 'Processor');
  const [uploaded] = await user.upload([{ name: 'savedrecs.xls', bytes: readFileSync(FIXTURE) }]);
  file = await user.waitForIngest(uploaded!.id);
  expect(file.status).toBe('PROCESSED');
});
afterAll(async () => {
  await sift?.close();
});

/** The fixture's records as SheetJS reads them: Authors and Email Addresses of each data row. */
function fixtureRecords(): { authors: string; emails: string }[] {
  const wb = XLSX.read(readFileSync(FIXTURE));
  const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets[wb.SheetNames[0]!]!, {
    defval: '',
  });
  return rows.map((r) => ({
    authors: String(r.Authors ?? '').trim(),
    emails: String(r['Email Addresses'] ?? '').trim(),
  }));
}

const rule = { sourceColumn: 'Authors', targetColumn: 'Email Addresses', delimiter: ';' };
const request: ExportRequest = {
  fileIds: [],
  format: 'CSV',
  columns: ['Authors', 'Email Addresses', 'Article Title'],
  enablePreprocessing: true,
  preprocessingRules: [rule],
};

it('previews the split of authors and emails with the counts the fixture implies', async () => {
  const records = fixtureRecords();
  // One row per position where the author or the email list has a piece; at least one per record.
  const expected = records.reduce((n, r) => {
    const a = r.authors.split(';').map((s) => s.trim());
    const e = r.emails.split(';').map((s) => s.trim());
    let pairs = 0;
    for (let i = 0; i < Math.max(a.length, e.length); i++) if (a[i] || e[i]) pairs++;
    return n + Math.max(1, pairs);
  }, 0);
  const preview = await user.json<PreprocessingPreview>('/file/export/preview', {
    ...request,
    fileIds: [file.id],
  });
  expect(preview.originalCount).toBe(records.length);
  expect(preview.processedCount).toBe(expected);
  expect(preview.processedCount).toBeGreaterThan(preview.originalCount);
  expect(preview.expansionDetails).toHaveLength(2);
  for (const d of preview.expansionDetails) {
    expect(d).toMatchObject({ ruleName: 'Rule 1', sourceColumn: 'Authors', targetColumn: 'Email Addresses' });
    expect(d.matchedPairs.length).toBeGreaterThanOrEqual(2);
    expect(d.matchedPairs.length).toBeLessThanOrEqual(3);
    expect(d.matchedPairs[0]!.source).toBe(d.originalSourceValue.split(';')[0]!.trim());
  }

  // The export has exactly that many rows (plus the header row), and the history says so.
  const res = await user.sendJson('/file/export', { ...request, fileIds: [file.id] });
  expect(res.status).toBe(200);
  const text = (await res.text()).replace(/^\uFEFF/, '');
  const parsed = XLSX.read(text, { type: 'string', raw: true });
  const exported = XLSX.utils.sheet_to_json<Record<string, string>>(parsed.Sheets[parsed.SheetNames[0]!]!, {
    defval: '',
    raw: false,
  });
  expect(exported).toHaveLength(expected);
  // Every exported author cell is a single author now.
  expect(exported.filter((r) => r.Authors!.includes(';'))).toEqual([]);
  const [latest] = await user.json<ExportHistoryEntry[]>('/file/exports');
  expect(latest).toMatchObject({ rowCount: expected, exportFormat: 'CSV' });
  expect(latest!.exportCriteria.columns).toBe(3);
});

it('validates rules and leaves rows alone when pre-processing is off', async () => {
  const bad = await user.sendJson('/file/export/preview', {
    preprocessingRules: [{ sourceColumn: '', targetColumn: 'x' }],
  });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: string }).error).toBe(
    'Each pre-processing rule needs a source column.',
  );
  const res = await user.sendJson('/file/export', {
    ...request,
    fileIds: [file.id],
    enablePreprocessing: false,
  });
  const lines = XLSX.utils.sheet_to_json(
    XLSX.read((await res.text()).replace(/^\uFEFF/, ''), { type: 'string' }).Sheets.Sheet1!,
  );
  expect(lines).toHaveLength(fixtureRecords().length);
});
