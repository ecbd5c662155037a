/**
 * `npm run bench:search`: search, suggestions and export through the real API (HTTP, auth, the
 * running Sift in this process with embedded chDB), on generated rows (~10 columns, ~300 bytes a
 * row) spread over 200 files, at 1, 10 and 30 million rows: the growth curve.
 *
 *   npm run bench:search                               # 1M, 10M and 30M rows
 *   BENCH_SEARCH_SIZES=200000,1000000 npm run bench:search
 *
 * Prints, per size, each figure beside its goal (issue 22), on data at rest (timed once the
 * engine's background merges after the insert have finished):
 * - `POST /api/file/search` (rare term, common term, two criteria, surname and initial): median of
 *   RUNS through the API against the engine running the same SQL the same way (the count and the
 *   page side by side, from this process), the difference (the API's fixed cost: HTTP, token,
 *   account, file list) and the ratio; SQLite `LIKE` on the same rows (the `sqlite3` shell, `apt-get install sqlite3`).
 * - The first page sorted by a column (a common term, and every row) against the same search in
 *   file order, through the API (issue 23).
 * - Facets (issue 23): the first page with the facets of FACET_COLUMNS against the same search
 *   without, through the API.
 * - Accent-insensitive matching (issue 23), on the engine: the count and page as Sift runs them
 *   (folded, served by the folded text index), and with `matchAccents`, against `ILIKE` on the raw
 *   value with a text index of its own on the raw value (how Sift matched before).
 * - Suggestions while typing (`GET /api/file/autocomplete/regular/{column}`): p50 and p95 over every
 *   prefix of a rare name, of common names and of full names, as typed, each prefix asked once
 *   per round.
 * - Under load (issue 37): 400 searches of common and rare terms and two criteria, 20 at a time,
 *   through the API: p50 and p95 of each search's time, searches per second.
 * - CSV export through the API against the engine writing `FORMAT CSVWithNames` (best of two
 *   alternating runs each); at the first size also XLSX export against exceljs's bare streaming
 *   writer; at the last size the API's peak memory during the CSV export of every row, read from a
 *   Sift process of its own (scripts/bench-serve.ts) on the same data.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { startSift } from '@sift/api';
import type { SearchResponse } from '@sift/shared/contracts';
import { ident, likeContains, newUploadRecord, TEXT_INDEX_TYPE, type FileRow } from '@sift/clickhouse';
import { signIn } from '../test/support/oidc.ts';
import { COUNTRIES, HEADERS, RARE_EVERY, RARE_SURNAME, SURNAMES, WORDS } from './bench-data.ts';
import { benchSiftOptions } from './bench-options.ts';
import { apiCaller, curlApi, serveAlone, watchMemory } from './bench-support.ts';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000000,10000000,30000000').split(',').map(Number);
const FILES = 200;
const DATABASE = 'bench';
const RUNS = 15;
/** A ClickHouse array literal of these (plain) strings. */
const sqlArray = (values: string[]) => `[${values.map((v) => `'${v}'`).join(',')}]`;
const SURNAME_ARRAY = sqlArray(SURNAMES);
const WORD_ARRAY = sqlArray(WORDS);
const s = (k: string) => `${SURNAME_ARRAY}[(cityHash64(number, ${k}) % 12) + 1]`;
const w = (k: number) => `${WORD_ARRAY}[(cityHash64(number, ${k}) % 12) + 1]`;
/** The generated cells, one SQL expression per header (the rare surname once every RARE_EVERY rows). */
const CELLS = [
  `concat(${s("'a'")}, ', A; ', ${s("'b'")}, ', B')`,
  `concat(if(number % ${RARE_EVERY} = 7, '${RARE_SURNAME}', ${s("'a'")}), ', Anna; ', ${s("'b'")}, ', Ben')`,
  `concat(${w(1)}, ' ', ${w(2)}, ' of ', ${w(3)}, ' and ', ${w(4)}, ' in ', ${w(5)}, ' systems ', toString(number))`,
  `concat('Journal of ', ${w(6)}, ' and ', ${w(7)}, ' research')`,
  `toString(1990 + number % 35)`,
  `concat('10.', toString(1000 + number % 9000), '/x', toString(number))`,
  `concat('Department of ', ${w(8)}, ', University of ', ${w(9)}, ', ', ${w(10)}, ' campus')`,
  `${sqlArray(COUNTRIES)}[number % ${COUNTRIES.length} + 1]`,
  `concat(lower(${s("'a'")}), toString(number), '@uni.edu; ', lower(${s("'b'")}), '.b@inst.org')`,
  `concat(${w(11)}, '; ', ${w(12)}, '; ', ${w(13)}, '; ', ${w(14)})`,
];
const SEARCHES: [string, Record<string, string>][] = [
  ['rare term', { 'Author Full Names': 'zyskowski' }],
  ['common term', { 'Author Full Names': 'kowalski' }],
  ['two criteria', { 'Author Full Names': 'kowalski', Country: 'japan' }],
  // How names are written in these exports: the text index serves only the surname.
  ['surname and initial', { 'Author Full Names': 'kowalski, a' }],
];
/** Searches timed sorted by SORT_COLUMN and in file order (issue 23). */
const SORTED: [string, Record<string, string>][] = [
  ['common term', { 'Author Full Names': 'kowalski' }],
  ['every row', {}],
];
const SORT_COLUMN = 'Article Title';
/** Columns whose facets are timed (issue 23), with the searches of SORTED. */
const FACET_COLUMNS = ['Publication Year', 'Country', 'Source Title'];
/** Terms timed folded and with `ILIKE` (issue 23): `muller` finds the data's `Müller` only folded. */
const ACCENT_TERMS: [string, string][] = [
  ['rare term', 'zyskowski'],
  ['common term', 'kowalski'],
  ['plain letters for Müller', 'muller'],
];
const ACCENT_COLUMN = 'Author Full Names';
/** Goals of issue 22, printed beside each figure. */
const GOALS = {
  /** The API's time over the engine's for the same SQL, ms. */
  fixedCostMs: 5,
  /** API time over engine time, at 1M and 10M rows. */
  ratio: 1.3,
  /** A rare term's median through the API at 10M rows, ms. */
  rareP50At10M: 30,
  /** Suggestions at 10M rows, ms. */
  suggestP50: 50,
  suggestP95: 150,
  /** Searches at CONCURRENT_USERS at once (issue 37, goal 5), p95 ms. */
  concurrentP95: 300,
};
/**
 * Sizes past this (the 100M-row point of the growth curve) export once each way instead of the
 * best of two, and skip SQLite: each full export writes ~30 GB to a disk writing ~80 MB/s.
 */
const LARGE_SIZE = 30_000_000;
/** Searches sent at once, and how many in all, for the figure under load (issue 37, goal 5). */
const CONCURRENT_USERS = 20;
const CONCURRENT_SEARCHES = 400;
/**
 * What a user types into a suggestion box: every prefix (from 2 letters) of these names. `Muller`
 * is typed without its accent, so each of its prefixes must suggest the data's `Müller`. A full
 * name is typed as these exports write it, surname and given name.
 */
const TYPED = {
  rare: [RARE_SURNAME],
  common: ['Kowalski', 'Müller', 'Muller', 'Tanaka'],
  'full name': ['Kowalski, Anna', 'Muller, Ben'],
};
const SUGGEST_COLUMN = 'Author Full Names';
const SUGGEST_ROUNDS = 3;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** The `q` quantile (0–1) of `xs`, nearest rank. */
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
const median = (xs: number[]) => quantile(xs, 0.5);
/** `value` against a goal of at most `goal`: "met" or "NOT met". */
const against = (value: number, goal: number, unit = '') =>
  `goal ≤ ${goal}${unit}: ${value <= goal ? 'met' : 'NOT met'}`;
/**
 * `a` and `b` timed in turn, RUNS times each after a warm-up of both, so both see the same
 * moments of this machine (whose speed drifts within a minute): their medians, and the median of
 * the differences `a − b` taken pair by pair. `before` runs, untimed, before each of them.
 */
async function paired(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  before: () => Promise<unknown> = async () => undefined,
): Promise<{ a: number; b: number; difference: number }> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  const ds: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await before();
    let t = performance.now();
    await a();
    as.push(performance.now() - t);
    await before();
    t = performance.now();
    await b();
    bs.push(performance.now() - t);
    ds.push(as[i]! - bs[i]!);
  }
  return { a: median(as), b: median(bs), difference: median(ds) };
}

const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-search-'));
const queuePrefix = `sift-bench-${randomUUID()}`;
const sift = await startSift(benchSiftOptions(dir, DATABASE, queuePrefix));
const { storage } = sift;
let siftOpen = true;
const closeSift = async () => {
  if (siftOpen) await sift.close();
  siftOpen = false;
};
const table = `${ident(storage.database)}.rows`;
const rows: Record<string, unknown>[] = [];
try {
  const token = await signIn(sift.url, 'admin@example.com', 'Bench Mark');
  const api = apiCaller(sift.url, token);
  await api('/accounts/onboard', { firstName: 'Bench', lastName: 'Mark' });
  const me = await api<{ id: string }>('/accounts/me');
  /**
   * Before a timed search: what the API reuses while the account's records are unchanged (its
   * counts and facets, OwnerRecords.result) is dropped, as any write of a record would, and the
   * records read again untimed (`/file/columns` reads them), so a search repeated RUNS times is
   * timed as its first asking, the count and facets computed.
   */
  const uncounted = async () => {
    await storage.recordsChanged([me.id]);
    await api('/file/columns');
  };

  // Columns (with the skip indexes Sift decides from a sample) and 200 PROCESSED file records.
  const sampleRs = await storage.client.query({
    query: `SELECT ${CELLS.join(', ')} FROM numbers(2000)`,
    format: 'JSONCompactEachRow',
  });
  const columnMap = await storage.rows.ensureColumns(HEADERS, await sampleRs.json<string[]>());
  const files: FileRow[] = Array.from({ length: FILES }, (_, i) => ({
    ...newUploadRecord({
      id: randomUUID(),
      ownerId: me.id,
      originalFilename: `bench-${i}.csv`,
      filename: '',
      sizeBytes: 0,
    }),
    status: 'PROCESSED',
    columnNames: HEADERS,
    totalColumns: HEADERS.length,
    sheetNames: ['Sheet1'],
    columnMap,
  }));
  await storage.files.save(...files);
  const physical = HEADERS.map((h) => ident(columnMap[h]!));
  // A text index on the raw value of ACCENT_COLUMN beside Sift's folded one: what `ILIKE` used
  // before accent-insensitive matching. Not named `ti_…`, so Sift does not take it for its own.
  const accentColumn = ident(columnMap[ACCENT_COLUMN]!);
  await storage.client.command({
    query: `ALTER TABLE ${table} ADD INDEX IF NOT EXISTS bench_raw_index ${accentColumn} TYPE ${TEXT_INDEX_TYPE}`,
  });
  /** The count and first page of `term` in ACCENT_COLUMN with `ILIKE`, side by side; the count. */
  const ilike = async (term: string): Promise<number> => {
    const where = `file_id IN {ids:Array(String)} AND ${accentColumn} ILIKE {t:String}`;
    const query_params = { ids: files.map((f) => f.id), t: likeContains(term) };
    const [count] = await Promise.all([
      storage.client
        .query({
          query: `SELECT count() AS n FROM ${table} WHERE ${where}`,
          query_params,
          format: 'JSONEachRow',
        })
        .then((rs) => rs.json<{ n: number }>()),
      storage.client
        .query({
          query: `SELECT * FROM ${table} WHERE ${where} ORDER BY file_id, sheet, row_number LIMIT 20`,
          query_params,
          format: 'JSONCompactEachRow',
        })
        .then((rs) => rs.json()),
    ]);
    return Number(count[0]?.n ?? 0);
  };

  /** The engine writing every row with `FORMAT CSVWithNames` into `out` (in table order when `ordered`). */
  // The rows as CSV with a header row; `fromRow`: only rows numbered from it (one size's new rows).
  const engineCsv = (out: string, ordered: boolean, fromRow = 0) =>
    storage.client.command({
      query: `INSERT INTO FUNCTION file({out:String}, 'CSVWithNames')
              SELECT ${physical.map((c, i) => `${c} AS \`${HEADERS[i]}\``).join(', ')} FROM ${table}
              ${fromRow ? 'WHERE row_number >= {fromRow:UInt32}' : ''}
              ${ordered ? 'ORDER BY file_id, sheet, row_number' : ''}`,
      query_params: { out, fromRow },
      clickhouse_settings: { engine_file_truncate_on_insert: 1 },
    });
  // SQLite gets the same rows at every size, appended from the engine's CSV (skipped without sqlite3).
  // Not past LARGE_SIZE: importing 100M rows into SQLite takes longer than the rest of the run.
  const sqliteDb =
    spawnSync('sqlite3', ['-version']).status === 0 && SIZES.at(-1)! <= LARGE_SIZE
      ? path.join(dir, 'rows.sqlite')
      : null;

  let loaded = 0;
  for (const [n, size] of SIZES.entries()) {
    const t = performance.now();
    await storage.client.command({
      query: `INSERT INTO ${table} (file_id, sheet, row_number, ${physical.join(', ')})
              SELECT {ids:Array(String)}[number % ${FILES} + 1], 'Sheet1', toUInt32(intDiv(number, ${FILES}) + 2), ${CELLS.join(', ')}
              FROM numbers(${loaded}, ${size - loaded})`,
      query_params: { ids: files.map((f) => f.id) },
    });
    const loadMs = performance.now() - t;
    if (sqliteDb) {
      const csv = path.join(dir, 'sqlite.csv');
      await engineCsv(csv, false, loaded / FILES + 2);
      // The first import creates the table from the header row; later ones skip it.
      const skip = loaded ? '--skip 1 ' : '';
      spawnSync('sqlite3', [sqliteDb], { input: `.import --csv ${skip}${csv} rows\n` });
      rmSync(csv, { force: true });
    }
    loaded = size;
    const settled = await mergesSettled();
    const row: Record<string, unknown> = {
      rows: fmt(size),
      'load rows/s (engine)': fmt((size - (n ? SIZES[n - 1]! : 0)) / (loadMs / 1000)),
      'merges settled': `${(settled.ms / 1000).toFixed(0)} s after the SQLite import, ${settled.parts} parts`,
    };

    for (const [name, criteria] of SEARCHES) {
      const query = { files, criteria };
      // The engine running what the API runs for this search: the count and the page side by side.
      let hits = 0;
      const timing = await paired(
        async () => {
          const res = await api<SearchResponse>('/file/search', {
            searchCriteria: criteria,
            page: 0,
            size: 20,
          });
          hits = res.totalRecords;
        },
        () => Promise.all([storage.rows.count(query), storage.rows.page(query, 0, 20)]),
        uncounted,
      );
      const [http, direct, fixed] = [timing.a, timing.b, timing.difference];
      const ratio = http / direct;
      row[`${name}: API ms`] =
        name === 'rare term' && size === 10_000_000
          ? `${http.toFixed(1)} (${against(http, GOALS.rareP50At10M, ' ms')})`
          : http.toFixed(1);
      row[`${name}: engine ms`] = direct.toFixed(1);
      row[`${name}: API's fixed cost`] =
        `${fixed.toFixed(1)} ms (${against(fixed, GOALS.fixedCostMs, ' ms')})`;
      row[`${name}: ratio`] =
        `${ratio.toFixed(2)}× (${size <= 10_000_000 ? `${against(ratio, GOALS.ratio, '×')}, ` : ''}${fmt(hits)} hits)`;
      if (sqliteDb) {
        const sqlite = sqliteLike(sqliteDb, criteria);
        row[`${name}: SQLite LIKE ms`] =
          `${sqlite.toFixed(0)} (${(sqlite / http).toFixed(0)}× the API's time)`;
      }
    }

    // Under load (issue 37, goal 5): CONCURRENT_SEARCHES searches, CONCURRENT_USERS at a time, each
    // of a term picked in turn from every surname (common terms), the rare one and two criteria,
    // as many users searching at once; each request timed from its send to its answer.
    {
      const terms: Record<string, string>[] = [
        ...SURNAMES.map((name) => ({ 'Author Full Names': name.toLowerCase() })),
        { 'Author Full Names': RARE_SURNAME.toLowerCase() },
        ...COUNTRIES.map((country) => ({ 'Author Full Names': 'kowalski', Country: country.toLowerCase() })),
      ];
      // Nothing counted before: each term's first search counts it (the later ones reuse that
      // count while the records stay the same, as they do for users searching a name again).
      await uncounted();
      const ms: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENT_USERS }, async () => {
          for (let i = next++; i < CONCURRENT_SEARCHES; i = next++) {
            const t = performance.now();
            await api<SearchResponse>('/file/search', {
              searchCriteria: terms[i % terms.length],
              page: 0,
              size: 20,
            });
            ms.push(performance.now() - t);
          }
        }),
      );
      const wall = performance.now() - started;
      const p95 = quantile(ms, 0.95);
      row[`${CONCURRENT_SEARCHES} searches, ${CONCURRENT_USERS} at once`] =
        `p50 ${quantile(ms, 0.5).toFixed(0)} / p95 ${p95.toFixed(0)} ms (p95 ${against(p95, GOALS.concurrentP95, ' ms')}), ${(CONCURRENT_SEARCHES / (wall / 1000)).toFixed(0)} searches/s`;
    }

    // Sorting by a column (issue 23): the first page sorted by the title against the same search
    // in file order, through the API, in turn.
    for (const [name, criteria] of SORTED) {
      const search = (sort: object) => () =>
        api<SearchResponse>('/file/search', { searchCriteria: criteria, page: 0, size: 20, ...sort });
      const timing = await paired(search({ sortBy: SORT_COLUMN, sortOrder: 'asc' }), search({}), uncounted);
      row[`sorted by ${SORT_COLUMN}, ${name}: API ms`] =
        `${timing.a.toFixed(1)} (${timing.b.toFixed(1)} in file order)`;
    }

    // Facets (issue 23): the same searches with and without the facets, in turn.
    for (const [name, criteria] of SORTED) {
      const search = (more: object) => () =>
        api<SearchResponse>('/file/search', { searchCriteria: criteria, page: 0, size: 20, ...more });
      const timing = await paired(search({ facets: FACET_COLUMNS }), search({}), uncounted);
      row[`facets of ${FACET_COLUMNS.length} columns, ${name}: API ms`] =
        `${timing.a.toFixed(1)} (${timing.b.toFixed(1)} without)`;
    }

    // Accent-insensitive matching (issue 23): the engine folded and with matchAccents, each in turn
    // with ILIKE on the raw value.
    for (const [name, term] of ACCENT_TERMS) {
      const query = { files, criteria: { [ACCENT_COLUMN]: term } };
      const hits = [0, 0, 0];
      const run = (matchAccents: boolean, at: number) => async () => {
        const q = { ...query, matchAccents };
        [hits[at]] = await Promise.all([storage.rows.count(q), storage.rows.page(q, 0, 20)]);
      };
      const raw = async () => void (hits[2] = await ilike(term));
      const folded = await paired(run(false, 0), raw);
      const exact = await paired(run(true, 1), raw);
      row[`accents, ${name}: engine ms`] =
        `folded ${folded.a.toFixed(1)} (${fmt(hits[0]!)} hits), matchAccents ${exact.a.toFixed(1)} (${fmt(hits[1]!)}), ` +
        `ILIKE ${folded.b.toFixed(1)} (${fmt(hits[2]!)}): ${(folded.a / folded.b).toFixed(2)}× / ${(exact.a / exact.b).toFixed(2)}×`;
    }

    for (const [kind, names] of Object.entries(TYPED)) {
      const times = await typing(api, names);
      const [p50, p95] = [median(times), quantile(times, 0.95)];
      row[`suggestions, ${kind} prefixes`] =
        `p50 ${p50.toFixed(0)} / p95 ${p95.toFixed(0)} ms over ${times.length}` +
        (size === 10_000_000
          ? ` (${against(p50, GOALS.suggestP50, ' ms')} / ${against(p95, GOALS.suggestP95, ' ms')})`
          : '');
    }

    {
      // CSV export through the API against the engine writing the same rows itself, at every size.
      // Best of two for each, alternating: single runs on this machine vary by ±25 %.
      const engineFile = path.join(dir, 'engine.csv');
      const engineRun = async () => {
        settleDisk();
        const te = performance.now();
        await engineCsv(engineFile, true);
        return performance.now() - te;
      };
      const engineMs1 = await engineRun();
      rmSync(engineFile, { force: true });
      const csv1 = await exportVia(sift.url, token, 'CSV');
      const once = size > LARGE_SIZE;
      const engineMs = once ? engineMs1 : Math.min(engineMs1, await engineRun());
      rmSync(engineFile, { force: true });
      const csv = { ms: once ? csv1.ms : Math.min(csv1.ms, (await exportVia(sift.url, token, 'CSV')).ms) };
      row['CSV export rows/s'] =
        `${fmt(size / (csv.ms / 1000))} (${(engineMs / csv.ms).toFixed(2)}× engine's ${fmt(size / (engineMs / 1000))})`;
    }
    // XLSX at the first size only, up to 1M rows (a sheet holds at most 1,048,576).
    if (n === 0 && size <= 1_000_000) {
      const xlsx1 = await exportVia(sift.url, token, 'XLSX');
      const bare1 = await bareXlsx(size);
      const xlsx = { ms: Math.min(xlsx1.ms, (await exportVia(sift.url, token, 'XLSX')).ms) };
      const bare = Math.min(bare1, await bareXlsx(size));
      row['XLSX export rows/s'] =
        `${fmt(size / (xlsx.ms / 1000))} (${(bare / xlsx.ms).toFixed(2)}× bare exceljs's ${fmt(size / (bare / 1000))})`;
    }
    if (n === SIZES.length - 1) {
      // The API's memory during a full export, read from a Sift process of its own on the same data:
      // this process has generated rows, written SQLite's CSV and run exceljs, which a server has not.
      await closeSift();
      const alone = await serveAlone(dir, DATABASE, queuePrefix);
      try {
        const aloneToken = await signIn(alone.url, 'admin@example.com', 'Bench Mark');
        // Private memory (heaps, engine) apart from the engine library's pages mapped from disk.
        const watch = watchMemory(alone.pid);
        const csv = await exportVia(alone.url, aloneToken, 'CSV');
        const peak = watch.stop();
        row['full CSV export'] =
          `${fmt(size / (csv.ms / 1000))} rows/s, ${fmt(csv.bytes / 2 ** 20)} MB, API peak private memory ${fmt(peak.private / 2 ** 20)} MB (RSS ${fmt(peak.rss / 2 ** 20)} MB; ${fmt(peak.before / 2 ** 20)} MB RSS before it; a Sift process of its own)`;
      } finally {
        await alone.stop();
      }
    }
    rows.push(row);
    console.log(row); // each size as soon as it is measured
  }
} finally {
  await closeSift();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\nSift search benchmark: ${FILES} files, ${HEADERS.length} columns, sizes ${SIZES.map(fmt).join(' and ')} rows (searches: medians of ${RUNS}, API and engine in turn)`,
);
// One line a measure, one column a size: the growth curve.
const measures = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((m) => m !== 'rows');
console.table(
  Object.fromEntries(
    measures.map((m) => [m, Object.fromEntries(rows.map((r) => [String(r.rows), r[m] ?? '']))]),
  ),
);

/**
 * Waits until the engine has no merge running on `rows` (polled each second, at most 15 minutes):
 * the searches are timed on data at rest, as a user searches it, not against the background merges
 * that follow a 10M-row insert (on 2 cores a merge with its text indexes takes one core for
 * minutes). Returns the wait in ms and the active parts left.
 */
async function mergesSettled(): Promise<{ ms: number; parts: number }> {
  const t = performance.now();
  const [db, name] = [storage.database, 'rows'];
  for (;;) {
    const rs = await storage.client.query({
      query: `SELECT (SELECT count() FROM system.merges WHERE database = {db:String} AND table = {name:String}) AS merging,
                     (SELECT count() FROM system.parts WHERE database = {db:String} AND table = {name:String} AND active) AS parts`,
      query_params: { db, name },
      format: 'JSONEachRow',
    });
    const [state] = await rs.json<{ merging: number; parts: number }>();
    if (!Number(state?.merging) || performance.now() - t > 15 * 60_000)
      return { ms: performance.now() - t, parts: Number(state?.parts ?? 0) };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Suggestions as a user types each of `names` into the search form's box: every prefix from two
 * letters, lower-case (`ko`, `kow`, …), one request each, SUGGEST_ROUNDS rounds. The first round
 * meets each prefix for the first time (no cache of the engine has seen it); later rounds are
 * the next user typing the same. Returns every request's ms.
 */
async function typing(api: ReturnType<typeof apiCaller>, names: string[]): Promise<number[]> {
  const column = encodeURIComponent(SUGGEST_COLUMN);
  const times: number[] = [];
  for (let round = 0; round < SUGGEST_ROUNDS; round++) {
    for (const name of names) {
      for (let end = 2; end <= name.length; end++) {
        const prefix = encodeURIComponent(name.slice(0, end).toLowerCase());
        const t = performance.now();
        const values = await api<string[]>(`/file/autocomplete/regular/${column}?query=${prefix}&limit=10`);
        times.push(performance.now() - t);
        if (!values.length) throw new Error(`no suggestion for ${name.slice(0, end)}`);
      }
    }
  }
  return times;
}

/** Median ms of the search's count and first page with SQLite `LIKE` on the database `db`. */
function sqliteLike(db: string, criteria: Record<string, string>): number {
  const where = Object.entries(criteria)
    .map(([h, t]) => `"${h}" LIKE '%${t.replaceAll("'", "''")}%'`)
    .join(' AND ');
  const script = `.timer on\nSELECT count(*) FROM rows WHERE ${where};\nSELECT * FROM rows WHERE ${where} LIMIT 20;\n`;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const out = spawnSync('sqlite3', [db], { input: script, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    const reals = [...out.stdout.matchAll(/Run Time: real ([\d.]+)/g)].map((m) => Number(m[1]) * 1000);
    times.push(reals.reduce((a, b) => a + b, 0));
  }
  return median(times);
}

/**
 * One export through the API, downloaded by curl in its own process (as a real client would be,
 * so the download does not compete with the API for this process's event loop): time to the last
 * byte, and its size. The token goes to curl in a header file readable only by this user.
 */
async function exportVia(
  url: string,
  token: string,
  format: 'CSV' | 'XLSX',
): Promise<{ ms: number; bytes: number }> {
  settleDisk();
  const t = performance.now();
  const out = await curlApi(dir, token, [
    '-o',
    '/dev/null',
    '-w',
    '%{size_download}',
    '-H',
    'content-type: application/json',
    '--data-binary',
    JSON.stringify({ searchCriteria: {}, format }),
    `${url}/api/file/export`,
  ]);
  return { ms: performance.now() - t, bytes: Number(out) };
}

/**
 * Writes the page cache's dirty pages to disk before an export is timed. The exports write hundreds
 * of megabytes, and this machine's disk takes ~80 MB/s: an export that started while the previous
 * step's file (or SQLite's database) was still being written back was throttled by it, which made
 * single export figures vary by half.
 */
function settleDisk(): void {
  spawnSync('sync');
}

/** exceljs's bare streaming writer writing `n` rows of the same shape to a file; ms. */
async function bareXlsx(n: number): Promise<number> {
  const file = path.join(dir, 'bare.xlsx');
  settleDisk();
  const t = performance.now();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  let ws = wb.addWorksheet('Results');
  ws.addRow(HEADERS).commit();
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % 1_000_000 === 0) {
      ws.commit();
      ws = wb.addWorksheet(`Results ${i / 1_000_000 + 1}`);
    }
    ws.addRow([
      `Kim, A; Rossi, B`,
      `Kim, Anna; Rossi, Ben`,
      `neural graph of soil and ocean in market systems ${i}`,
      'Journal of policy and health research',
      String(1990 + (i % 35)),
      `10.${1000 + (i % 9000)}/x${i}`,
      'Department of soil, University of ocean, graph campus',
      'Japan',
      `kim${i}@uni.edu; rossi.b@inst.org`,
      'soil; ocean; graph; market',
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  const ms = performance.now() - t;
  rmSync(file, { force: true });
  return ms;
}
