import { FOLDED_LETTERS } from '@sift/shared/contracts';

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
 * SQL for `expr` folded for accent- and case-insensitive matching: lower-cased, diacritics removed
 * (`Müller`, `MÜLLER` → `muller`; `José` → `jose`) and FOLDED_LETTERS written as plain letters: the
 * rule of `foldText` in `@sift/shared/contracts`, which a test holds to this one.
 * Text skip indexes are built on this expression (skip-index.ts), so `fold(col) LIKE fold(term)`
 * is served by them.
 */
export function foldSql(expr: string): string {
  const entries = Object.entries(FOLDED_LETTERS);
  const single = entries.filter(([, to]) => to.length === 1);
  let sql = `translateUTF8(removeDiacriticsUTF8(lowerUTF8(${expr})), '${single.map(([f]) => f).join('')}', '${single.map(([, t]) => t).join('')}')`;
  for (const [from, to] of entries.filter(([, t]) => t.length > 1))
    sql = `replaceAll(${sql}, '${from}', '${to}')`;
  return sql;
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
