/**
 * Facets (issue 23): the most frequent values of chosen columns among a search's matching rows,
 * with exact row counts, read with the page through `POST /api/file/search` (`facets`); accent
 * matching and the file filter apply to them as to the rows; exports and saved searches ignore it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import {
  EMAIL_DOMAIN_FACET,
  exactCriterion,
  FACET_VALUES,
  type FileRecord,
  type SearchResponse,
} from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;
let files: FileRecord[];
let reviews = 0;

const csv = (text: string) => new TextEncoder().encode(text);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Fay', 'Facet');
  const years = Array.from({ length: 14 }, (_, i) => 2000 + i);
  // Year 2000 once, 2001 twice, … so every count differs; a blank year is not a value.
  const general = ['Authors,Year,Type'];
  for (const [i, y] of years.entries())
    for (let k = 0; k <= i; k++) {
      if (k % 3 === 0) reviews++;
      general.push(`"${k % 2 ? 'Müller, H' : 'Smith, J'}",${y},${k % 3 ? 'Article' : 'Review'}`);
    }
  general.push('"Muller, P",,Article');
  const uploaded = await user.upload([
    { name: 'years.csv', bytes: csv(`${general.join('\n')}\n`) },
    { name: 'other.csv', bytes: csv('Authors,Language\n"Smith, K",English\n"Müller, A",German\n') },
  ]);
  files = await Promise.all(uploaded.map((f) => user.waitForIngest(f.id)));
});
afterAll(async () => {
  await sift?.close();
});

const search = (body: object) =>
  user.json<SearchResponse>('/file/search', { fileIds: files.map((f) => f.id), ...body });

it('answers the most frequent values of each asked column, with exact counts, with the page', async () => {
  const r = await search({ facets: ['Year', 'Type', 'Language', 'Not a column'] });
  expect(r.totalRecords).toBe(105 + 1 + 2);
  expect(r.data).toHaveLength(20);
  expect(r.facets?.map((f) => f.column)).toEqual(['Year', 'Type', 'Language']);
  const [year, type, language] = r.facets!;
  expect(year!.values).toHaveLength(FACET_VALUES);
  expect(year!.values.slice(0, 3)).toEqual([
    { value: '2013', count: 14 },
    { value: '2012', count: 13 },
    { value: '2011', count: 12 },
  ]);
  expect(type!.values).toEqual([
    { value: 'Article', count: 106 - reviews },
    { value: 'Review', count: reviews },
  ]);
  expect(language!.values).toEqual([
    { value: 'English', count: 1 },
    { value: 'German', count: 1 },
  ]);
});

it('counts only the matching rows, folded as the criteria are', async () => {
  const r = await search({ searchCriteria: { Authors: 'muller' }, facets: ['Language', 'Year'] });
  expect(r.totalRecords).toBe(49 + 1 + 1);
  expect(r.facets![0]!.values).toEqual([{ value: 'German', count: 1 }]);
  expect(r.facets![1]!.values[0]).toEqual({ value: '2013', count: 7 });
  const exact = await search({ searchCriteria: { Authors: 'muller' }, matchAccents: true, facets: ['Year'] });
  expect(exact.totalRecords).toBe(1);
  expect(exact.facets).toEqual([{ column: 'Year', values: [] }]);
  expect((await search({})).facets).toBeUndefined();
});

it('refuses more facet columns than it shows at once', async () => {
  const res = await user.sendJson('/file/search', { facets: Array.from({ length: 9 }, (_, i) => `C${i}`) });
  expect(res.status).toBe(400);
  expect(await res.text()).toContain('At most 8 facet columns');
});

it('counts spellings the search folds together as one value, and an exact criterion finds just those rows', async () => {
  const rows = [
    ...Array.from({ length: 5 }, () => 'IEEE Access,Article'),
    ...Array.from({ length: 2 }, () => 'IEEE ACCESS,Article; Early Access'),
    'ieee access,Review Article',
    'Physics Letters,Article',
  ];
  const [uploaded] = await user.upload([
    { name: 'sources.csv', bytes: csv(`Source,Kind\n${rows.join('\n')}\n`) },
  ]);
  const file = await user.waitForIngest(uploaded!.id);
  const inFile = (body: object) => user.json<SearchResponse>('/file/search', { fileIds: [file.id], ...body });

  const all = await inFile({ facets: ['Source', 'Kind'] });
  // One value for the three spellings, shown as the most frequent one.
  expect(all.facets![0]!.values).toEqual([
    { value: 'IEEE Access', count: 8 },
    { value: 'Physics Letters', count: 1 },
  ]);
  expect(all.facets![1]!.values[0]).toEqual({ value: 'Article', count: 6 });
  // A click on a value (its exact criterion) finds exactly the rows it counted; a plain term
  // matches it as a part of longer values too.
  expect((await inFile({ searchCriteria: { Source: exactCriterion('IEEE Access') } })).totalRecords).toBe(8);
  expect((await inFile({ searchCriteria: { Kind: exactCriterion('Article') } })).totalRecords).toBe(6);
  expect((await inFile({ searchCriteria: { Kind: 'Article' } })).totalRecords).toBe(9);
  // Folded as the search folds: accents and case.
  expect((await inFile({ searchCriteria: { Kind: exactCriterion('ÁRTICLE') } })).totalRecords).toBe(6);
  expect(
    (await inFile({ searchCriteria: { Kind: exactCriterion('ÁRTICLE') }, matchAccents: true })).totalRecords,
  ).toBe(0);
});

it('counts the matching rows by the domains of their email addresses; a click searches for @domain', async () => {
  const rows = [
    '"Kim, J; Lee, S","jkim@ku.dk; slee@KU.dk"',
    '"Ola, N",ola@bio.ku.dk',
    '"Roe, P","p.roe@exeter.ac.uk, x@ku.dk"',
    '"Ng, T",',
  ];
  const [uploaded] = await user.upload([
    { name: 'emails.csv', bytes: csv(`Authors,Email Addresses\n${rows.join('\n')}\n`) },
  ]);
  const file = await user.waitForIngest(uploaded!.id);
  const inFile = (body: object) => user.json<SearchResponse>('/file/search', { fileIds: [file.id], ...body });

  const r = await inFile({ facets: [EMAIL_DOMAIN_FACET, 'Authors'] });
  expect(r.facets!.map((f) => f.column)).toEqual([EMAIL_DOMAIN_FACET, 'Authors']);
  // A row once per domain, case folded: ku.dk is on two rows (three addresses).
  expect(r.facets![0]).toEqual({
    column: EMAIL_DOMAIN_FACET,
    searchColumn: 'Email Addresses',
    values: [
      { value: 'ku.dk', count: 2 },
      { value: 'bio.ku.dk', count: 1 },
      { value: 'exeter.ac.uk', count: 1 },
    ],
  });
  // What a click on ku.dk searches finds those rows.
  expect((await inFile({ searchCriteria: { 'Email Addresses': '@ku.dk' } })).totalRecords).toBe(2);
  // No email column among the files searched: no such facet.
  const plain = await user.json<SearchResponse>('/file/search', {
    fileIds: [files[0]!.id],
    facets: [EMAIL_DOMAIN_FACET],
  });
  expect(plain.facets).toEqual([]);
});
