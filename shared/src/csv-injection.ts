/**
 * The rule against formula injection (OWASP CSV Injection) that every export applies, in JavaScript
 * (`neutralise`) and in the engine's SQL (`neutraliseSql`, for the CSV the engine writes itself):
 * a cell starting with `=`, `+`, `-`, `@`, tab, carriage return or line feed is prefixed with `'`,
 * so spreadsheet programs show it as text, unless it is a plain number (`-2`, `+1.5`, `3e-7`).
 */

/** The first characters that make a spreadsheet program read a cell as a formula. */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\n'] as const;

/** A plain number: safe to export as it is, whatever its sign. RE2 and JavaScript read it alike. */
export const PLAIN_NUMBER_PATTERN = '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$';

const PLAIN_NUMBER = new RegExp(PLAIN_NUMBER_PATTERN);
const TRIGGERS = new Set<string>(FORMULA_TRIGGERS);

/**
 * A cell made safe against formula injection.
 *
 * @param value - the cell's text as stored
 * @returns the text, prefixed with `'` when a spreadsheet program would run it as a formula
 */
export function neutralise(value: string): string {
  return value.length > 0 && TRIGGERS.has(value[0]!) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * The same rule as a ClickHouse expression over a String expression. It tests the first byte's code
 * rather than a one-character substring, so no string is made per cell.
 *
 * @param expr - SQL of a String value
 * @returns SQL of the neutralised value
 */
export function neutraliseSql(expr: string): string {
  const codes = FORMULA_TRIGGERS.map((c) => c.charCodeAt(0)).join(', ');
  const pattern = PLAIN_NUMBER_PATTERN.replaceAll('\\', '\\\\');
  return `if(ascii(${expr}) IN (${codes}) AND NOT match(${expr}, '${pattern}'), concat('\\'', ${expr}), ${expr})`;
}
