import { TupleParam } from '@clickhouse/client';
import { stringLiteral } from './sql.ts';

/**
 * Writes the values of a query's `{name:Type}` placeholders into its text as SQL literals, for the
 * embedded engine. chDB runs parameterised queries one at a time across the whole process (its
 * binding state is shared by all connections, so chdb-node chains every bound query behind the
 * previous one); a query without parameters runs beside the others. With the values inlined, an
 * ingest's INSERT no longer holds up a search, and a search's count and page run side by side.
 *
 * Supported types: `String` (any text: `\` and `'` are escaped, so a value can never leave its
 * literal), the integer types (`UInt8`…`UInt64`, `Int8`…`Int64`: safe integers, bigints or digit
 * strings), `Array(String)` and arrays of tuples of those (`Array(Tuple(String, UInt32))`, each
 * tuple a TupleParam or an array). Returns null, leaving the query to the engine's own binding, when a
 * placeholder has another type or its value does not fit the type; placeholders without a value
 * are left as they are (the engine reports them). One pass over the original text: a value that
 * itself looks like a placeholder is never substituted again.
 *
 * @param query - SQL with `{name:Type}` placeholders
 * @param params - the values by name
 * @returns the query with the values written in, or null when a placeholder has a type written only bound
 */
export function inlineQueryParams(query: string, params: Record<string, unknown>): string | null {
  let unsupported = false;
  const text = query.replace(PLACEHOLDER, (whole, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const literal = toLiteral(type.trim(), params[name]);
    if (literal === null) unsupported = true;
    return literal ?? whole;
  });
  return unsupported ? null : text;
}

/** `{name:Type}` with a plain identifier as the name and no braces in the type. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;
const INTEGER_TYPE = /^U?Int(8|16|32|64)$/;

function toLiteral(type: string, value: unknown): string | null {
  if (type === 'String') {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
      ? stringLiteral(String(value))
      : null;
  }
  if (INTEGER_TYPE.test(type)) {
    const digits =
      typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+$/.test(value))
          ? String(value)
          : null;
    if (digits === null || (type.startsWith('U') && digits.startsWith('-'))) return null;
    return `to${type}(${digits})`;
  }
  if (type === 'Array(String)') {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
    return `CAST([${value.map(stringLiteral).join(', ')}] AS Array(String))`;
  }
  const tuple = ARRAY_OF_TUPLES.exec(type);
  if (tuple) {
    const types = tuple[1]!.split(',').map((t) => t.trim());
    if (!Array.isArray(value)) return null;
    const items: string[] = [];
    for (const item of value as unknown[]) {
      const fields = item instanceof TupleParam ? item.values : item;
      if (!Array.isArray(fields) || fields.length !== types.length) return null;
      const literals = fields.map((field, i) => element(types[i]!, field));
      if (literals.includes(null)) return null;
      items.push(`(${literals.join(', ')})`);
    }
    return `CAST([${items.join(', ')}] AS ${type})`;
  }
  return null;
}

/** `Array(Tuple(…))` of String and integer types: the tuple's types. */
const ARRAY_OF_TUPLES =
  /^Array\(Tuple\(((?:\s*(?:String|U?Int(?:8|16|32|64))\s*,)*\s*(?:String|U?Int(?:8|16|32|64))\s*)\)\)$/;

/** A tuple field as a literal the enclosing CAST converts: a string, or an integer's digits. */
function element(type: string, value: unknown): string | null {
  const literal = toLiteral(type, value);
  if (literal === null || type === 'String') return literal;
  return /^to\w+\((-?\d+)\)$/.exec(literal)![1]!;
}
