import type { FileRow } from '../files.repository.ts';
import { containsParts, containsTerm, ident, type ContainsTerm } from '../sql.ts';
import { anyOf, compileQuery, filterSql, keyBound, toHits, valueOf } from './criteria-sql.ts';
import type { SearchFacet } from '@sift/shared/contracts';
import type { RowHit, RowQuery, RowsTable } from './types.ts';

/**
 * Bounds of a suggestion query: stop after this many matching rows, this many rows read or this
 * many seconds, and answer from what was read (the most frequent values of a sample).
 */
export const SUGGEST_LIMITS = { matches: 100_000, rowsRead: 20_000_000, seconds: 2 } as const;
/**
 * Rows the folded read of a suggestion reads when the text index cannot serve its term (see
 * RowSearch.#suggestionReads), since folding every row of a large table takes far longer than a
 * suggestion may. A bound in rows, not in time, so the same rows are always read: a time bound
 * could stop the read before it had matched a row, and `mu` suggested no `Müller`.
 */
export const SUGGEST_FOLDED_ROWS = 200_000;
const SUGGEST_SETTINGS = {
  max_execution_time: SUGGEST_LIMITS.seconds,
  timeout_overflow_mode: 'break',
  max_rows_to_read: String(SUGGEST_LIMITS.rowsRead),
  read_overflow_mode: 'break',
} as const;

/**
 * Headers whose cells are `;`-separated lists in Web of Science and Scopus exports: a suggestion
 * for one of them is a single item (`Smith, M`), not a whole list.
 */
export const MULTI_VALUE_HEADERS: ReadonlySet<string> = new Set([
  'Authors',
  'Author Full Names',
  'Author full names',
  'Book Authors',
  'Book Author Full Names',
  'Book Editors',
  'Group Authors',
  'Book Group Authors',
  'Email Addresses',
  'Author Keywords',
  'Keywords Plus',
  'Index Keywords',
  'Researcher Ids',
  'ORCIDs',
  'WoS Categories',
  'Research Areas',
  'Affiliations',
  'Funding Orgs',
]);

/**
 * How a suggestion read matches a value: `match`, the whole condition on an expression; `narrow`,
 * the part of it the text skip index answers row by row (the term's fragments, see containsParts),
 * or null.
 */
interface SuggestMatch {
  match: (expr: string) => string;
  narrow: ((expr: string) => string) | null;
}

/**
 * The filter of a suggestion read of `rows` (see filterSql): the searched files, `conditions`, and
 * any of `exprs` matching `m` (none without `m`), any of their narrow parts read first.
 */
function rowsFilter(m: SuggestMatch | null, exprs: string[], conditions: string[]): string {
  return filterSql(
    ['file_id IN {fileIds:Array(String)}'],
    m?.narrow ? [anyOf(exprs.map(m.narrow))] : [],
    m ? [...conditions, anyOf(exprs.map(m.match))] : conditions,
  );
}

/** Searching `rows`: counts, pages and scans of matching rows, and value suggestions. */
export class RowSearch {
  constructor(private readonly t: RowsTable) {}

  /** Number of rows matching the query. */
  async count(query: RowQuery): Promise<number> {
    const c = compileQuery(query);
    if (!c) return 0;
    const rs = await this.t.client.query({
      query: `SELECT count() AS n FROM ${this.t.table} ${c.filter}`,
      query_params: c.params,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number }>();
    return Number(row?.n ?? 0);
  }

  /**
   * One page of matching rows in (file, sheet, row number) order, or by `query.sort` first. `offset`
   * and `limit` count rows.
   */
  async page(query: RowQuery, offset: number, limit: number): Promise<RowHit[]> {
    const c = compileQuery(query);
    if (!c) return [];
    const params: Record<string, unknown> = { ...c.params, limit, offset };
    const sortValue = query.sort && valueOf(query.files, query.sort.header, 'sortHeader');
    let order = 'file_id, sheet, row_number';
    if (query.sort && sortValue) {
      params.sortHeader = query.sort.header;
      const direction = query.sort.order === 'desc' ? 'DESC' : 'ASC';
      // Blank cells last either way; values in English collation (case and accents second).
      order = `(${sortValue}) = '' ASC, ${sortValue} ${direction} COLLATE 'en', ${order}`;
    }
    const rs = await this.t.client.query({
      query: `SELECT ${c.select} FROM ${this.t.table} ${c.filter}
              ORDER BY ${order} LIMIT {limit:UInt64} OFFSET {offset:UInt64}`,
      query_params: params,
      format: 'JSONCompactEachRow',
    });
    return toHits(query, c, await rs.json<unknown[]>());
  }

  /**
   * Facets of the query's matching rows: for each of `headers` that a searched file has, its `limit`
   * most frequent non-blank values with their row counts (most frequent first, then by value), in
   * one read of the matching rows (GROUPING SETS: one aggregation per header; 1.6× faster than
   * turning each row into one per header). Counts are exact. A header no file has gets no entry.
   */
  async facets(query: RowQuery, headers: readonly string[], limit: number): Promise<SearchFacet[]> {
    const c = compileQuery(query);
    if (!c || !headers.length) return [];
    const params: Record<string, unknown> = { ...c.params, limit };
    const values: string[] = [];
    const known: string[] = [];
    for (const header of headers) {
      const i = known.length;
      const value = valueOf(query.files, header, `fh${i}`);
      if (!value) continue;
      params[`fh${i}`] = header;
      values.push(`${value} AS fv${i}`);
      known.push(header);
    }
    if (!values.length) return [];
    const keys = known.map((_, i) => `fv${i}`);
    // A row of one grouping set has its own key and blanks for the others: which key is not blank
    // says whose facet it is (a blank value of its own is no value).
    const rs = await this.t.client.query({
      query: `SELECT facet, value, n FROM (
                SELECT arrayFirstIndex(x -> x != '', [${keys.join(', ')}]) AS facet,
                       arrayFirst(x -> x != '', [${keys.join(', ')}]) AS value, count() AS n
                FROM (SELECT ${values.join(', ')} FROM ${this.t.table} ${c.filter})
                GROUP BY GROUPING SETS (${keys.map((k) => `(${k})`).join(', ')}))
              WHERE facet > 0
              ORDER BY facet, n DESC, value LIMIT {limit:UInt64} BY facet`,
      query_params: params,
      format: 'JSONCompactEachRow',
    });
    const byFacet = known.map((column): SearchFacet => ({ column, values: [] }));
    for (const [facet, value, n] of await rs.json<[number, string, number]>())
      byFacet[facet - 1]!.values.push({ value, count: Number(n) });
    return byFacet;
  }

  /**
   * Every matching row, in batches of at most `batchSize`, read with keyset pagination on the sort
   * key so memory stays bounded whatever the result size (the embedded engine materialises each
   * query's result, so one unbounded query would not stream).
   */
  async *scan(query: RowQuery, batchSize = 20_000): AsyncGenerator<RowHit[]> {
    const c = compileQuery(query);
    if (!c) return;
    const fetch = async (last: RowHit | null): Promise<RowHit[]> => {
      const after = keyBound('>', last && [last.fileId, last.sheet, last.rowNumber], 'after');
      const rs = await this.t.client.query({
        query: `SELECT ${c.select} FROM ${this.t.table} ${c.filter} ${after.sql}
                ORDER BY file_id, sheet, row_number LIMIT {limit:UInt64}`,
        query_params: { ...c.params, ...after.params, limit: batchSize },
        format: 'JSONCompactEachRow',
      });
      return toHits(query, c, await rs.json<unknown[]>());
    };
    // The next batch is read while the caller works on this one (one read ahead, no more).
    let next: Promise<RowHit[]> | null = fetch(null);
    while (next) {
      const hits: RowHit[] = await next;
      next = hits.length === batchSize ? fetch(hits[hits.length - 1]!) : null;
      // Marked handled: a failure still surfaces at the await above.
      next?.catch(() => undefined);
      if (hits.length) yield hits;
    }
  }

  /**
   * Distinct values of one column over `files` that contain `query` (regardless of case and accents; all values
   * when `query` is empty), most frequent first, at most `limit`. Bounded: the engine stops reading
   * after SUGGEST_LIMITS (time and rows read) and the answer is built from what it has read, so a
   * suggestion over ten million rows answers in time, possibly from part of the data. For a
   * MULTI_VALUE_HEADERS header the values are the trimmed items of each cell's `;` list (the bound
   * then counts items). A term the text index cannot serve (see #suggestionReads) is read twice.
   */
  async suggest(files: FileRow[], header: string, query: string, limit: number): Promise<string[]> {
    const value = valueOf(files, header, 'h');
    if (!files.length || !value) return [];
    const term = containsTerm('t', query);
    const params = {
      ...term.params,
      fileIds: files.map((f) => f.id),
      h: header,
      limit,
      sample: SUGGEST_LIMITS.matches,
    };
    // The cell is matched first (its skip index serves that), then each of its items.
    const read = (m: SuggestMatch) => {
      const cells = rowsFilter(query ? m : null, [value], [`${value} != ''`]);
      const sql = MULTI_VALUE_HEADERS.has(header)
        ? `SELECT v FROM (
             SELECT trimBoth(arrayJoin(splitByChar(';', ${value}))) AS v FROM ${this.t.table} ${cells})
           WHERE v != ''${query ? ` AND ${m.match('v')}` : ''}`
        : `SELECT ${value} AS v FROM ${this.t.table} ${cells}`;
      return `SELECT v, count() AS n FROM (${sql} LIMIT {sample:UInt64})
              GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64}`;
    };
    const counts = await this.#suggestionReads(term, read, params);
    return counts.slice(0, limit).map((c) => c.key[0]!);
  }

  /**
   * Values of any column of `files` containing `query` (regardless of case and accents, non-empty), most frequent
   * first, with their header; columns kept in the overflow map are not looked at. Bounded like
   * {@link suggest}.
   */
  async suggestAny(
    files: FileRow[],
    query: string,
    limit: number,
  ): Promise<{ column: string; value: string }[]> {
    const pairs = new Map<string, string>(); // physical column → header
    for (const f of files)
      for (const [h, c] of Object.entries(f.columnMap)) if (c && !pairs.has(c)) pairs.set(c, h);
    if (!files.length || !pairs.size || !query) return [];
    const term = containsTerm('t', query);
    const params: Record<string, unknown> = {
      ...term.params,
      fileIds: files.map((f) => f.id),
      limit,
      sample: SUGGEST_LIMITS.matches,
    };
    const cols = [...pairs];
    cols.forEach(([, h], i) => (params[`h${i}`] = h));
    const tuples = cols.map(([c], i) => `({h${i}:String}, ${ident(c)})`).join(', ');
    const read = (m: SuggestMatch) =>
      `SELECT p.1 AS column, p.2 AS value, count() AS n FROM (
         SELECT arrayJoin([${tuples}]) AS p FROM ${this.t.table}
         ${rowsFilter(
           m,
           cols.map(([c]) => ident(c)),
           [],
         )}
         LIMIT {sample:UInt64})
       WHERE ${m.match('value')}
       GROUP BY column, value ORDER BY n DESC, value LIMIT {limit:UInt64}`;
    const counts = await this.#suggestionReads(term, read, params);
    return counts.slice(0, limit).map(({ key: [column, value] }) => ({ column: column!, value: value! }));
  }

  /**
   * Runs a suggestion read (`read`: its SQL for a SuggestMatch; it answers its keys then `n`,
   * the count) and answers the keys by count, most first. The folded match reads every row, folding
   * each, when the text index cannot serve the term (shorter than INDEXED_FRAGMENT_MIN, or split
   * by separators into shorter pieces): several times slower than ILIKE. Such a term is read
   * twice side by side: with ILIKE, within SUGGEST_LIMITS, and folded, over the first
   * SUGGEST_FOLDED_ROWS rows. A key's count is the larger of the two (the folded read finds what
   * the ILIKE read finds, and more when it reads every row), so the answer holds every value ILIKE
   * finds and the accented spellings among the rows the folded read reached.
   */
  async #suggestionReads(
    term: ContainsTerm,
    read: (m: SuggestMatch) => string,
    params: Record<string, unknown>,
  ): Promise<{ key: string[]; n: number }[]> {
    const run = async (sql: string, settings: Record<string, string | number>) => {
      const rs = await this.t.client.query({
        query: sql,
        query_params: params,
        format: 'JSONCompactEachRow',
        clickhouse_settings: settings,
      });
      return (await rs.json<(string | number)[]>()).map((r) => ({
        key: r.slice(0, -1).map(String),
        n: Number(r[r.length - 1]),
      }));
    };
    const folded = (settings: Record<string, string | number>) =>
      run(
        read({
          match: (e) => containsParts(e, term).match,
          narrow: term.fragments.length ? (e) => containsParts(e, term).narrow! : null,
        }),
        settings,
      );
    // No term (every value), or one the index serves: one read.
    if (term.indexed || term.params[term.param] === '%%') return folded(SUGGEST_SETTINGS);
    const [plain, partial] = await Promise.all([
      run(read({ match: (e) => `${e} ILIKE {${term.param}:String}`, narrow: null }), SUGGEST_SETTINGS),
      folded({ ...SUGGEST_SETTINGS, max_rows_to_read: String(SUGGEST_FOLDED_ROWS) }),
    ]);
    const merged = new Map<string, { key: string[]; n: number }>();
    for (const row of [...plain, ...partial]) {
      const id = JSON.stringify(row.key);
      const seen = merged.get(id);
      if (!seen || seen.n < row.n) merged.set(id, row);
    }
    return [...merged.values()].sort(
      (a, b) => b.n - a.n || (a.key.join('\u0000') < b.key.join('\u0000') ? -1 : 1),
    );
  }
}
