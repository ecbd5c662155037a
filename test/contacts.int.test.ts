/**
 * Contact exports (Admin): `GET /admin/export/contacts/emails` and `/full` list every account's
 * people (issue 35), one row per person, installation-wide. The emails are checked against
 * the Web of Science fixture read independently with SheetJS (every email of every record, none
 * dropped), names and source files against the pairing, cells against formula injection.
 */
import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { AuditEntry, Page } from '@sift/shared/contracts';
import { fixture } from './support/fixtures.ts';
import { siftWithData, type ApiClient } from './support/sift.ts';

const FIXTURE = fixture('wos-savedrecs-emails.xls');
let sift: RunningSift;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  ({ sift, admin, user } = await siftWithData(
    { email: 'bea@example.org', firstName: 'Bea', lastName: 'Bravo' },
    [
      { name: 'savedrecs.xls', bytes: readFileSync(FIXTURE) },
      {
        name: 'team.csv',
        bytes: new TextEncoder().encode(
          'Authors,Email Addresses\n' +
            '"=HYPERLINK(""http://x""), A",hyper@evil.example\n' +
            '"Kim, J",JKim@Uni.edu\n' +
            '"Kim, J",jkim@uni.edu \n',
        ),
      },
    ],
  ));
});
afterAll(async () => {
  await sift?.close();
});

/** A CSV download as records (BOM dropped), header first. */
async function csv(res: Response): Promise<string[][]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const wb = XLSX.read(new TextDecoder().decode(bytes.subarray(3)), { type: 'string', raw: true });
  return XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]!]!, { header: 1, defval: '' });
}

/** Every email address of the fixture's records, trimmed and lower-cased, straight from the file. */
function fixtureEmails(): Set<string> {
  const wb = XLSX.read(readFileSync(FIXTURE));
  const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(wb.Sheets[wb.SheetNames[0]!]!, {
    defval: '',
  });
  return new Set(
    rows.flatMap((r) =>
      String(r['Email Addresses'] ?? '')
        .split(';')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  );
}

it('exports one row per person with an email, every email of all AUTHOR files once', async () => {
  const res = await admin.fetch('/admin/export/contacts/emails');
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="?contacts-emails-\d{4}-\d\d-\d\d\.csv"?$/,
  );
  const [header, ...rows] = await csv(res);
  expect(header).toEqual(['Email', 'Other Emails']);
  const emails = rows.flatMap((r) => [r[0]!, ...r[1]!.split('; ').filter(Boolean)]).sort();
  const expected = [...fixtureEmails(), 'hyper@evil.example', 'jkim@uni.edu'].sort();
  expect(expected.length).toBeGreaterThan(200);
  expect(emails).toEqual(expected);
  // One row per person: fewer rows than emails where a person gave two.
  expect(rows.every((r) => r[0]!.includes('@'))).toBe(true);
  expect(rows.length).toBeLessThanOrEqual(expected.length);
});

it('exports every person with names, identifiers, entries and source files, neutralising formulas', async () => {
  const [header, ...rows] = await csv(await admin.fetch('/admin/export/contacts/full'));
  expect(header).toEqual([
    'Name',
    'Email',
    'Other Emails',
    'ORCID',
    'ResearcherID',
    'Affiliation',
    'Country',
    'Entries',
    'Last Year',
    'Journals',
    'Files',
    'Account',
  ]);
  const byEmail = new Map(rows.filter((r) => r[1]).map((r) => [r[1]!, r]));
  expect(byEmail.size).toBe(rows.filter((r) => r[1]).length);
  // In the fixture `Liao, WJ; Lu, XZ; Fei, YF; Gu, Y; Huang, YL || luxz@tsinghua.edu.cn`: paired
  // by name with the second author (the full name comes from Author Full Names), not the first.
  const lu = byEmail.get('luxz@tsinghua.edu.cn')!;
  expect(lu[0]).toMatch(/^Lu, X/);
  expect([lu[10], lu[11]]).toEqual(['savedrecs.xls', 'bea@example.org']);
  // Two rows giving one email in two spellings: one person of two entries.
  const kim = byEmail.get('jkim@uni.edu')!;
  expect([kim[0], kim[2], kim[7], kim[10]]).toEqual(['Kim, J', '', '2', 'team.csv']);
  expect(byEmail.get('hyper@evil.example')![0]).toBe(`'=HYPERLINK("http://x"), A`);
});

it('is for administrators only, names the two exports, and is audited', async () => {
  expect((await user.fetch('/admin/export/contacts/emails')).status).toBe(403);
  expect((await admin.fetch('/admin/export/contacts/phones')).status).toBe(404);
  const audit = await admin.json<Page<AuditEntry>>('/admin/audit');
  expect(
    audit.content.filter((e) => e.action === 'export.contacts').map((e) => [e.target, e.actorEmail]),
  ).toEqual([
    ['full', 'admin@example.com'],
    ['emails', 'admin@example.com'],
  ]);
});
