import { FOLD_LETTERS, FOLD_SEQUENCES } from '@sift/shared/contracts';

/**
 * The one audited place where identifiers and values enter SQL text. Queries are written with
 * `{name:Type}` parameters; against the embedded engine their values are then written in as
 * literals by `stringLiteral` (see inline-params.ts), never by string concatenation elsewhere.
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Backquotes a plain identifier (database, table or generated column name); throws on anything else. */
export function ident(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

/** Escapes `%`, `_` and `\` so a user's term is matched literally inside `ILIKE '%term%'`. */
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

/** `CREATE FUNCTION` of FOLD_FUNCTION (idempotent), with `onCluster` (` ON CLUSTER …` or empty). */
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
 */
export function foldSql(expr: string): string {
  return `${FOLD_FUNCTION}(${expr})`;
}

/**
 * SQL matching `expr` against the `%…%` pattern held by query parameter `param` (see likeContains):
 * accent- and case-insensitive by default; with `matchAccents`, case-insensitive only (`ILIKE`),
 * still narrowed by the folded condition so the column's text skip index serves it.
 */
export function containsSql(expr: string, param: string, matchAccents = false): string {
  const folded = `${foldSql(expr)} LIKE ${foldSql(`{${param}:String}`)}`;
  return matchAccents ? `(${expr} ILIKE {${param}:String} AND ${folded})` : folded;
}

/** A ClickHouse string literal holding `value` exactly: `\` and `'` are escaped, nothing else can end it. */
export function stringLiteral(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
