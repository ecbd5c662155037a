/**
 * The SQL of value suggestions: what a suggestion for one column, or for any column, reads of
 * `rows`, and how a term the text skip index cannot serve is read twice. Pure: no query is run
 * (RowSearch runs them); `criteria-sql.snapshots.test.ts` holds what it emits.
 */
import { rowsIdOf, type FileRow } from '../files.repository.ts';
import { containsParts, containsTerm, ident, type ContainsTerm } from '../sql.ts';
import { anyOf, filterSql, valueOf } from './criteria-sql.ts';

/**
 * Bounds of a suggestion query: stop after this many matching rows, this many rows read or this
 * many seconds, and answer from what was read (the most frequent values of a sample).
 */
export const SUGGEST_LIMITS = { matches: 100_000, rowsRead: 20_000_000, seconds: 2 } as const;
/**
 * Rows the folded read of a suggestion reads when the text index cannot serve its term (see
 * suggestionReads), since folding every row of a large table takes far longer than a
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

/** One read of a suggestion: its SQL (keys, then the count `n`) and the engine settings it runs with. */
export interface SuggestionRead {
  sql: string;
  settings: Record<string, string | number>;
}

/** A suggestion's reads (one, or two to run side by side) and the parameters they share. */
export interface SuggestionReads {
  reads: SuggestionRead[];
  params: Record<string, unknown>;
}

/**
 * The reads of a suggestion whose SQL for a match is `read`. The folded match reads every row,
 * folding each, when the text index cannot serve the term (shorter than INDEXED_FRAGMENT_MIN, or
 * split by separators into shorter pieces): several times slower than ILIKE. Such a term is read
 * twice side by side: with ILIKE, within SUGGEST_LIMITS, and folded, over the first
 * SUGGEST_FOLDED_ROWS rows. A term the index serves, or none, is one folded read.
 *
 * @param term - the typed term as query parameters (see containsTerm)
 * @param read - the SQL of the read for a way of matching
 * @returns the reads, in the order their answers are merged
 */
export function suggestionReads(term: ContainsTerm, read: (m: SuggestMatch) => string): SuggestionRead[] {
  const folded: SuggestMatch = {
    match: (e) => containsParts(e, term).match,
    narrow: term.fragments.length ? (e) => containsParts(e, term).narrow! : null,
  };
  if (term.indexed || term.params[term.param] === '%%')
    return [{ sql: read(folded), settings: SUGGEST_SETTINGS }];
  return [
    {
      sql: read({ match: (e) => `${e} ILIKE {${term.param}:String}`, narrow: null }),
      settings: SUGGEST_SETTINGS,
    },
    { sql: read(folded), settings: { ...SUGGEST_SETTINGS, max_rows_to_read: String(SUGGEST_FOLDED_ROWS) } },
  ];
}

/**
 * The reads of a suggestion of one column's values: distinct values of `header` over `files` that
 * contain `query` (all values when it is empty), most frequent first, at most `limit`, from at most
 * SUGGEST_LIMITS.matches matching cells. For a MULTI_VALUE_HEADERS header the values are the trimmed
 * items of each cell's `;` list; the cell is matched first (its skip index serves that), then each item.
 *
 * @param table - the quoted table to read (`db.rows`, quoted)
 * @param files - the files whose rows are read
 * @param header - the column, by header name
 * @param query - the typed term, trimmed; '' for every value
 * @param limit - the most values to answer
 * @returns the reads and their parameters, or null when no file has the header
 */
export function suggestSql(
  table: string,
  files: FileRow[],
  header: string,
  query: string,
  limit: number,
): SuggestionReads | null {
  const value = valueOf(files, header, 'h');
  if (!files.length || !value) return null;
  const term = containsTerm('t', query);
  const params = {
    ...term.params,
    fileIds: files.map(rowsIdOf),
    h: header,
    limit,
    sample: SUGGEST_LIMITS.matches,
  };
  const read = (m: SuggestMatch) => {
    const cells = rowsFilter(query ? m : null, [value], [`${value} != ''`]);
    const sql = MULTI_VALUE_HEADERS.has(header)
      ? `SELECT v FROM (
           SELECT trimBoth(arrayJoin(splitByChar(';', ${value}))) AS v FROM ${table} ${cells})
         WHERE v != ''${query ? ` AND ${m.match('v')}` : ''}`
      : `SELECT ${value} AS v FROM ${table} ${cells}`;
    return `SELECT v, count() AS n FROM (${sql} LIMIT {sample:UInt64})
            GROUP BY v ORDER BY n DESC, v LIMIT {limit:UInt64}`;
  };
  return { reads: suggestionReads(term, read), params };
}

/**
 * The reads of a suggestion over every column: values of any physical column of `files` containing
 * `query` (non-empty), with their header, most frequent first; columns kept in the overflow map are
 * not looked at.
 *
 * @param table - the quoted table to read (`db.rows`, quoted)
 * @param files - the files whose rows are read
 * @param query - the typed term, trimmed
 * @param limit - the most values to answer
 * @returns the reads and their parameters, or null when there is nothing to read or no term
 */
export function suggestAnySql(
  table: string,
  files: FileRow[],
  query: string,
  limit: number,
): SuggestionReads | null {
  const pairs = new Map<string, string>(); // physical column → header
  for (const f of files)
    for (const [h, c] of Object.entries(f.columnMap)) if (c && !pairs.has(c)) pairs.set(c, h);
  if (!files.length || !pairs.size || !query) return null;
  const term = containsTerm('t', query);
  const params: Record<string, unknown> = {
    ...term.params,
    fileIds: files.map(rowsIdOf),
    limit,
    sample: SUGGEST_LIMITS.matches,
  };
  const cols = [...pairs];
  cols.forEach(([, h], i) => (params[`h${i}`] = h));
  const tuples = cols.map(([c], i) => `({h${i}:String}, ${ident(c)})`).join(', ');
  const read = (m: SuggestMatch) =>
    `SELECT p.1 AS column, p.2 AS value, count() AS n FROM (
       SELECT arrayJoin([${tuples}]) AS p FROM ${table}
       ${rowsFilter(
         m,
         cols.map(([c]) => ident(c)),
         [],
       )}
       LIMIT {sample:UInt64})
     WHERE ${m.match('value')}
     GROUP BY column, value ORDER BY n DESC, value LIMIT {limit:UInt64}`;
  return { reads: suggestionReads(term, read), params };
}
