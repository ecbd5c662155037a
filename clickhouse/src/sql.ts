import { FOLD_LETTERS, FOLD_SEQUENCES } from '@sift/shared/contracts';

/**
 * The one audited place where identifiers and values enter SQL text. Queries are written with
 * `{name:Type}` parameters; against the embedded engine their values are then written in as
 * literals by `stringLiteral` (see inline-params.ts), never by string concatenation elsewhere.
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Backquotes a plain identifier (database, table or generated column name); throws on anything else.
 *
 * @param name - letters, digits and `_` only
 * @returns the name in backquotes
 * @throws Error for any other name
 */
export function ident(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

/**
 * Escapes `%`, `_` and `\` so a user's term is matched literally inside `ILIKE '%term%'`.
 *
 * @param term - the user's text
 * @returns the `%term%` pattern
 */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The engine's fold, a SQL function of Sift's own (created at start-up: `foldFunctionDefinition`):
 * the rule of `foldText` in `@sift/shared/contracts` (a test holds the two equal). ASCII cells take
 * the fast path (`lower`): the whole rule on every cell made a scan several times slower than ILIKE.
 * A table of accented letters for `translateUTF8` would be faster still, but each text index keeps
 * the expression written out, and 200 of them passed the engine's limit on a table's definition.
 * The version in the name changes with the rule: text indexes keep the expression they were built
 * on, so a new rule needs new indexes (RowColumns.prepareFolding), never a silently changed one.
 */
export const FOLD_FUNCTION = 'sift_fold_v1';

/**
 * `CREATE FUNCTION` of FOLD_FUNCTION (idempotent), with `onCluster` (` ON CLUSTER …` or empty).
 *
 * @param onCluster - ` ON CLUSTER …` or ''
 * @returns the statement
 */
export function foldFunctionDefinition(onCluster: string): string {
  const letters = Object.entries(FOLD_LETTERS);
  const from = stringLiteral(letters.map(([f]) => f).join(''));
  const to = stringLiteral(letters.map(([, t]) => t).join(''));
  let folded = `translateUTF8(removeDiacriticsUTF8(lowerUTF8(x)), ${from}, ${to})`;
  for (const [f, t] of Object.entries(FOLD_SEQUENCES))
    folded = `replaceAll(${folded}, ${stringLiteral(f)}, ${stringLiteral(t)})`;
  return `CREATE FUNCTION IF NOT EXISTS ${FOLD_FUNCTION}${onCluster} AS (x) -> if(length(x) = lengthUTF8(x), lower(x), ${folded})`;
}

/**
 * SQL for `expr` folded for accent- and case-insensitive matching (`Müller`, `MÜLLER` → `muller`).
 * Text skip indexes are built on it (skip-index.ts), so `fold(col) LIKE fold(term)` is served by them.
 *
 * @param expr - SQL of a String value
 * @returns SQL of the folded value
 */
export function foldSql(expr: string): string {
  return `${FOLD_FUNCTION}(${expr})`;
}

/**
 * SQL of `expr` folded as names are compared: the engine's form of `foldName` in
 * `@sift/shared/people` (folded, every run of characters other than letters and digits one
 * space, trimmed): `Müller, H.` and `MULLER H` both give `muller h`.
 */
export function foldNameSql(expr: string): string {
  return `trimBoth(replaceRegexpAll(${foldSql(expr)}, '[^\\\\p{L}\\\\p{N}]+', ' '))`;
}

/**
 * The shortest piece of a term the text skip index looks up on its own (letters and digits between
 * separators): it serves `LIKE '%…%'` for a pattern of this many characters or more within one
 * token, and scans for a shorter one or one spanning a separator (`smith, j`).
 */
export const INDEXED_FRAGMENT_MIN = 4;

/** A contains-match term as query parameters: see containsTerm. */
export interface ContainsTerm {
  /** The parameter holding the whole `%…%` pattern. */
  param: string;
  /** Parameters holding the patterns of the term's indexable fragments, when it has separators. */
  fragments: string[];
  /** Every parameter, by name. */
  params: Record<string, string>;
  /**
   * The text skip index narrows the read: the term is one piece of at least INDEXED_FRAGMENT_MIN
   * characters, or has such a fragment. Otherwise a match reads every row, folding each.
   */
  indexed: boolean;
}

/**
 * `term` as the parameters of a contains-match named `param`: its `%…%` pattern (likeContains) and,
 * when separators split it, one more for each fragment of at least INDEXED_FRAGMENT_MIN characters
 * (`param` + `f0`, `f1`, …). A fragment implied by the term narrows nothing, but its own condition
 * lets the text skip index skip the granules without it: `zyskowski, a` reads like `zyskowski`.
 *
 * @param param - the parameter name to use
 * @param term - the user's text, trimmed
 * @returns the term's parameters and whether the index can serve it
 */
export function containsTerm(param: string, term: string): ContainsTerm {
  const pieces = term.split(/[^0-9A-Za-z\u0080-\u{10FFFF}]+/u);
  const fragments =
    pieces.length > 1 ? [...new Set(pieces.filter((p) => [...p].length >= INDEXED_FRAGMENT_MIN))] : [];
  const params: Record<string, string> = { [param]: likeContains(term) };
  const names = fragments.map((fragment, i) => {
    const name = `${param}f${i}`;
    params[name] = likeContains(fragment);
    return name;
  });
  const whole = pieces.length === 1 && [...term].length >= INDEXED_FRAGMENT_MIN;
  return { param, fragments: names, params, indexed: whole || names.length > 0 };
}

/**
 * SQL matching `expr` against a term (see containsTerm): accent- and case-insensitive by default;
 * with `matchAccents`, case-insensitive only (`ILIKE`), still narrowed by the folded condition so
 * the column's text skip index serves it. The term's fragments are matched too, for the index.
 *
 * @param expr - SQL of a String value
 * @param term - the term's parameters (containsTerm)
 * @param matchAccents - accents must match too
 * @returns the condition
 */
export function containsSql(expr: string, term: ContainsTerm, matchAccents = false): string {
  const { narrow, match } = containsParts(expr, term, matchAccents);
  return narrow ? `(${match} AND ${narrow})` : match;
}

/**
 * containsSql in two parts whose conjunction it is: `narrow`, the conditions on the term's
 * fragments, which the text skip index answers row by row (null for a term without fragments),
 * and `match`, the whole term, read and folded. Evaluated first, as a PREWHERE, `narrow` spares
 * the fold of every row it rules out: in one WHERE the engine folds every row it reads.
 *
 * @param expr - SQL of a String value
 * @param term - the term's parameters (containsTerm)
 * @param matchAccents - accents must match too
 * @returns the narrowing part (or null) and the whole match
 */
export function containsParts(
  expr: string,
  term: ContainsTerm,
  matchAccents = false,
): { narrow: string | null; match: string } {
  const like = (p: string) => `${foldSql(expr)} LIKE ${foldSql(`{${p}:String}`)}`;
  const folded = like(term.param);
  return {
    narrow: term.fragments.length ? term.fragments.map(like).join(' AND ') : null,
    match: matchAccents ? `(${expr} ILIKE {${term.param}:String} AND ${folded})` : folded,
  };
}

/**
 * SQL of `expr` as a search folds it: accents and case (foldSql), or, with `matchAccents`, case
 * only. Facets group values by it and an exact criterion compares by it, so the two agree.
 *
 * @param expr - SQL of a String value
 * @param matchAccents - accents must match too
 * @returns the folded value's SQL
 */
export function searchFoldSql(expr: string, matchAccents = false): string {
  return matchAccents ? `lowerUTF8(${expr})` : foldSql(expr);
}

/**
 * A ClickHouse string literal holding `value` exactly: `\` and `'` are escaped, nothing else can end it.
 *
 * @param value - any text
 * @returns the literal
 */
export function stringLiteral(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
