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
 * strings), `Array(String)` and arrays of an integer type (`Array(UInt32)`). Returns null,
 * leaving the query to the engine's own binding, when a placeholder has another type or its value
 * does not fit the type; placeholders without a value are left as they are (the engine reports
 * them). One pass over the original text: a value that
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
const INTEGER_ARRAY = /^Array\((U?Int(?:8|16|32|64))\)$/;

function toLiteral(type: string, value: unknown): string | null {
  if (type === 'String') {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
      ? stringLiteral(String(value))
      : null;
  }
  if (INTEGER_TYPE.test(type)) {
    const digits = integerDigits(type, value);
    return digits === null ? null : `to${type}(${digits})`;
  }
  if (type === 'Array(String)') {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
    return `CAST([${value.map(stringLiteral).join(', ')}] AS Array(String))`;
  }
  const integers = INTEGER_ARRAY.exec(type);
  if (integers) {
    if (!Array.isArray(value)) return null;
    const digits = value.map((v) => integerDigits(integers[1]!, v));
    // Plain numbers: the parser reads an array of literals as one constant, however long.
    return digits.includes(null) ? null : `CAST([${digits.join(', ')}] AS ${type})`;
  }
  return null;
}

/** An integer value's digits when it fits `type` (a safe integer, a bigint or a digit string), else null. */
function integerDigits(type: string, value: unknown): string | null {
  const digits =
    typeof value === 'number' && Number.isSafeInteger(value)
      ? String(value)
      : typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+$/.test(value))
        ? String(value)
        : null;
  return digits === null || (type.startsWith('U') && digits.startsWith('-')) ? null : digits;
}
