/**
 * `npm run bench:people` (and the end of `npm run bench:search`): People at scale (issue 35),
 * through the real API (HTTP, auth, the running Sift in this process with embedded chDB).
 *
 *   npm run bench:people                          # 1M people from 10M AUTHOR rows
 *   BENCH_PEOPLE=100000 npm run bench:people
 *
 * The engine generates BENCH_PEOPLE × 10 AUTHOR rows of one account's AUTHOR file (each person's
 * ten rows spread over the file, as authors recur across records): seven give the person's email,
 * one also an older email, one the email and the ORCID, one the ORCID alone, so every person is
 * joined through union-find. The update that makes people of them is timed, then, RUNS times
 * each after a warm-up, through the API:
 * - `POST /api/file/people/search` (the page, the count and the facets) for a full name, an
 *   ORCID, an email, a surname, `@domain`, a country and no query at all: p50 and p95;
 * - a person's page (`GET /api/file/people/{id}`), and suggestions for every prefix of a name.
 * Each figure is printed beside its goal.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSift } from '@sift/api';
import { newUploadRecord, type FileRow } from '@sift/clickhouse';
import type { PeopleSearchResponse } from '@sift/shared/contracts';
import { signIn } from '../test/support/oidc.ts';
import { COUNTRIES, WORDS } from './bench-data.ts';
import { benchSiftOptions } from './bench-options.ts';
import { apiCaller, watchMemory } from './bench-support.ts';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1_000_000);
const ROWS_PER_PERSON = 10;
const RUNS = 15;
const GOALS = { searchP50: 50, searchP95: 150, personP50: 100, suggestP50: 50 };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
const against = (value: number, goal: number) => `goal ≤ ${goal} ms: ${value <= goal ? 'met' : 'NOT met'}`;
const sqlArray = (values: readonly string[]) => `[${values.map((v) => `'${v}'`).join(',')}]`;

/** Syllables of the generated surnames: 20³ = 8,000 of them, so names recur as real ones do. */
const SYLLABLES = [
  'ka',
  'no',
  'wa',
  'ski',
  'ler',
  'mu',
  'ta',
  'ri',
  'sen',
  'lo',
  'be',
  'chi',
  'do',
  'ga',
  'hu',
  'ko',
  'ma',
  'ne',
  'pi',
  'zu',
];
const GIVEN = [
  'Anna',
  'Ben',
  'Chen',
  'Dario',
  'Eva',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kira',
  'Lars',
];
const person = 'p';
const syl = (k: number) =>
  `${sqlArray(SYLLABLES)}[intDiv(cityHash64(${person}, 'surname'), ${20 ** k}) % 20 + 1]`;
/** SQL of a generated person's parts, `p` being their number. */
const SURNAME = `concat(upper(substring(${syl(0)}, 1, 1)), substring(${syl(0)}, 2), ${syl(1)}, ${syl(2)})`;
const FIRST = `${sqlArray(GIVEN)}[cityHash64(${person}, 'given') % 12 + 1]`;
const EMAIL = `concat(lower(${FIRST}), '.', lower(${SURNAME}), toString(${person}), '@uni', toString(${person} % 50), '.edu')`;
const ORCID = `concat('0000-000', toString(${person} % 10), '-', leftPad(toString(intDiv(${person}, 10) % 10000), 4, '0'), '-', leftPad(toString(intDiv(${person}, 100000) % 10000), 4, '0'))`;

const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-people-'));
const sift = await startSift(benchSiftOptions(dir, 'bench_people', `sift-bench-${randomUUID()}`));
const { storage } = sift;
try {
  const token = await signIn(sift.url, 'admin@example.com', 'Bench Mark');
  const api = apiCaller(sift.url, token);
  await api('/accounts/onboard', { firstName: 'Bench', lastName: 'Mark' });
  const me = await api<{ id: string }>('/accounts/me');
  const general = {
    ...newUploadRecord({
      id: randomUUID(),
      ownerId: me.id,
      originalFilename: 'authors.csv',
      filename: '',
      sizeBytes: 0,
    }),
    status: 'PROCESSED',
  } satisfies FileRow;
  const author: FileRow = {
    ...general,
    id: randomUUID(),
    fileType: 'AUTHOR',
    sourceFileId: general.id,
    totalRows: PEOPLE * ROWS_PER_PERSON,
  };
  await storage.files.save(general, author);

  // Row n is of person n % PEOPLE; its kind (n / PEOPLE) says what it gives.
  const rows = PEOPLE * ROWS_PER_PERSON;
  const started = performance.now();
  const memory = watchMemory('self');
  const written = await storage.people.addRows(me.id, author.id, {
    select: `SELECT {f:String} AS file_id, 'Sheet1' AS sheet, toUInt32(n) AS row_number,
               arrayConcat(arrayMap(e -> concat('email:', e), emails), if(orcid != '', [concat('orcid:', orcid)], [])) AS keys,
               concat(${SURNAME}, ', ', ${FIRST}) AS name, emails, orcid, '' AS researcher_id, year,
               concat(${sqlArray(WORDS)}[n % 12 + 1], ' ', ${sqlArray(WORDS)}[intDiv(n, 12) % 12 + 1], ' ', toString(n)) AS title,
               concat('Journal of ', ${sqlArray(WORDS)}[cityHash64(n, 'j') % 12 + 1], ' ', toString(cityHash64(n, 'k') % 20)) AS journal,
               concat('University ', toString(${person} % 300), ', ', country) AS affiliation, country,
               [${sqlArray(WORDS)}[cityHash64(n, 'w1') % 12 + 1], ${sqlArray(WORDS)}[cityHash64(n, 'w2') % 12 + 1]] AS keywords
             FROM (
               SELECT number AS n, n % {people:UInt64} AS ${person}, intDiv(n, {people:UInt64}) AS kind,
                 toUInt16(1995 + (kind * 3 + ${person} % 3)) AS year,
                 ${sqlArray(COUNTRIES)}[${person} % ${COUNTRIES.length} + 1] AS country,
                 multiIf(kind = 9, [], kind = 3, [${EMAIL}, concat('old.', ${EMAIL})], [${EMAIL}]) AS emails,
                 if(kind >= 8, ${ORCID}, '') AS orcid
               FROM numbers({rows:UInt64}))`,
    params: { f: author.id, people: PEOPLE, rows },
  });
  const buildMs = performance.now() - started;
  const peak = memory.stop();
  console.log(
    `\nPeople (issue 35): ${fmt(written)} people from ${fmt(rows)} AUTHOR rows of one account, made in ${fmt(buildMs)} ms (${fmt(rows / (buildMs / 1000))} rows/s), peak RSS ${fmt(peak.rss / 2 ** 20)} MB (private ${fmt(peak.private / 2 ** 20)} MB; ${fmt(peak.before / 2 ** 20)} MB before)`,
  );

  /** p50 and p95 of `call` over RUNS runs after a warm-up, ms. */
  const timed = async (call: () => Promise<unknown>) => {
    await call();
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await call();
      ms.push(performance.now() - t);
    }
    return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
  };
  const search = (body: object) => api<PeopleSearchResponse>('/file/people/search', { size: 20, ...body });
  // A person from the middle of the list (the first ones' names sort first: \`Bebebe\`, a needle
  // that repeats itself, is a poor example of a name).
  const sample = (await search({ query: '', page: Math.floor(PEOPLE / 40) })).people[0]!;
  const surname = sample.name.split(',')[0]!;
  const cases: [string, object][] = [
    ['full name (a few people)', { query: sample.name }],
    ['ORCID (one person)', { query: sample.orcids[0] ?? '' }],
    ['email (one person)', { query: sample.emails[0]!.email.toUpperCase() }],
    ['surname', { query: surname.toLowerCase() }],
    ['@domain', { query: '@uni7.edu' }],
    [
      `country facet (${(100 / COUNTRIES.length).toFixed(0)}% of people)`,
      { query: '', country: COUNTRIES[3] },
    ],
    ['no query (every person, top by entries)', { query: '' }],
  ];
  console.log('\n| People search through the API | found | p50 | p95 | goal |');
  console.log('|---|---|---|---|---|');
  for (const [label, body] of cases) {
    const found = (await search(body)).totalPeople;
    const t = await timed(() => search(body));
    console.log(
      `| ${label} | ${fmt(found)} | ${t.p50.toFixed(1)} ms | ${t.p95.toFixed(1)} ms | p50 ${against(t.p50, GOALS.searchP50)}; p95 ${against(t.p95, GOALS.searchP95)} |`,
    );
  }
  const page = await timed(() => api(`/file/people/${sample.id}`));
  console.log(
    `| a person's page (\`GET /file/people/{id}\`, ${sample.rows} entries) | 1 | ${page.p50.toFixed(1)} ms | ${page.p95.toFixed(1)} ms | p50 ${against(page.p50, GOALS.personP50)} |`,
  );
  const prefixes = Array.from({ length: sample.name.length - 1 }, (_, i) => sample.name.slice(0, i + 2));
  const suggestMs: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const prefix of prefixes) {
      const t = performance.now();
      await api(`/file/people/suggest?prefix=${encodeURIComponent(prefix)}`);
      if (round) suggestMs.push(performance.now() - t);
    }
  const s50 = quantile(suggestMs, 0.5);
  console.log(
    `| suggestions, every prefix of "${sample.name}" | – | ${s50.toFixed(1)} ms | ${quantile(suggestMs, 0.95).toFixed(1)} ms | p50 ${against(s50, GOALS.suggestP50)} |`,
  );
} finally {
  await sift.close();
  rmSync(dir, { recursive: true, force: true });
}
