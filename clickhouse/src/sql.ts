/**
 * The one audited place where identifiers enter SQL text. Values never do: they are bound as
 * `{name:Type}` query parameters.
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
