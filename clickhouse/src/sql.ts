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

/** A ClickHouse string literal holding `value` exactly: `\` and `'` are escaped, nothing else can end it. */
export function stringLiteral(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
