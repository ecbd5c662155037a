/**
 * Which columns of `rows` get a `text` skip index (architecture, "Skip index"). The index turns
 * a substring match (`fold(col) LIKE '%term%'`) into a dictionary lookup (a common surname over 5M rows is counted about five
 * times faster), but it costs insert speed and storage, and on ID-like columns (a DOI, an
 * accession number: nearly every value distinct, its tokens mostly numbers) the dictionary grows
 * with every row and makes the match slower than a plain scan. So the decision is made per column,
 * once, when the column is first created, from a sample of the values being ingested.
 */

import { foldSql, ident } from './sql.ts';

/** The index definition: one `text` index per searchable column, tokens split at non-alphanumerics. */
export const TEXT_INDEX_TYPE = 'text(tokenizer = splitByNonAlpha)';

/**
 * Name of the skip index on a physical column.
 *
 * @param column - a physical column of `rows`
 * @returns the index's name
 */
export function textIndexName(column: string): string {
  return `ti_${column}`;
}

/**
 * The index of a physical column as written after `INDEX` or `ADD INDEX`: its name, the column's
 * folded value (sql.ts `foldSql`: lower case, no accents) and TEXT_INDEX_TYPE. Built on the folded
 * value, one index serves both matchings: accent-insensitive `fold(col) LIKE fold(term)` directly,
 * and `col ILIKE term` through the folded condition added beside it (sql.ts `containsSql`).
 *
 * @param column - a physical column of `rows`
 * @returns the index clause
 */
export function textIndexDefinition(column: string): string {
  return `${ident(textIndexName(column))} ${foldSql(ident(column))} TYPE ${TEXT_INDEX_TYPE}`;
}

/**
 * The physical column a text index of `rows` is on, from its name; null for any other index.
 *
 * @param indexName - an index of `rows`
 * @returns the physical column, or null
 */
export function indexedColumnOf(indexName: string): string | null {
  return indexName.startsWith('ti_') ? indexName.slice(3) : null;
}

/**
 * At most this many columns of `rows` carry a text index: every index is built on every insert
 * (for rows without the column too), so a table of thousands of columns cannot index them all
 * (docs/benchmarks.md). Columns past the cap are scanned.
 */
export const MAX_TEXT_INDEXES = 200;

/** Below this many non-empty sample values (but at least one) there is no evidence either way: indexed. */
export const MIN_SAMPLE_VALUES = 50;
/** Share of distinct values at or above which a column may be ID-like. */
const DISTINCT_VALUE_SHARE = 0.9;
/** Share of tokens carrying a digit at or above which a mostly-distinct column is ID-like. */
const NUMERIC_TOKEN_SHARE = 0.5;

/** Tokens as `splitByNonAlpha` cuts them (letters and digits of any script), lower-cased. */
function tokens(value: string): string[] {
  return value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/**
 * True when a column whose sample values are `values` should carry a text skip index: false only
 * for ID-like columns, i.e. (with at least MIN_SAMPLE_VALUES non-empty values) ≥ 90% of the values
 * distinct and ≥ 50% of their tokens (counted in each distinct value) containing a digit (DOI `10.1016/j.cell.2020.01.001`,
 * `WOS:000123456789`, ISBNs, phone numbers). Names, titles, abstracts, addresses, emails and
 * low-cardinality codes (years, countries) are indexed. A column empty in every sampled row (the
 * blank filler columns of a wide sheet) is not indexed: an index per empty column only slows
 * inserts. Without any sample (a header-only file) the column is indexed.
 *
 * @param values - sample values of the column
 * @returns false only for an ID-like column
 */
export function wantsTextIndex(values: Iterable<string>): boolean {
  const distinctValues = new Set<string>();
  let nonEmpty = 0;
  let sampled = 0;
  for (const v of values) {
    sampled++;
    if (v === '') continue;
    nonEmpty++;
    distinctValues.add(v);
  }
  if (nonEmpty === 0) return sampled === 0;
  if (nonEmpty < MIN_SAMPLE_VALUES) return true;
  if (distinctValues.size / nonEmpty < DISTINCT_VALUE_SHARE) return true;
  let all = 0;
  let numeric = 0;
  for (const v of distinctValues) {
    for (const t of tokens(v)) {
      all++;
      if (/\p{N}/u.test(t)) numeric++;
    }
  }
  if (!all) return true;
  return numeric / all < NUMERIC_TOKEN_SHARE;
}
