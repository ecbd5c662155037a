/**
 * The cells of an xlsx worksheet (Office Open XML, SpreadsheetML), written in one place: the api
 * writes rows with rowXml, and the clickhouse package has the engine write the same XML in SQL from
 * the pieces below (INLINE_CELL, XML_TEXT_ESCAPES, XML_DROPPED_CHARS), so both give identical bytes.
 */

/**
 * Spreadsheet column letters of a 1-based column number (1 → A, 28 → AB, 16384 → XFD).
 *
 * @param n - a 1-based column number
 * @returns its letters
 */
export function columnLetters(n: number): string {
  let letters = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}

/**
 * Replacements that make text XML element content, in the order they must be applied: markup
 * escaped, line breaks as character references so a reader keeps them exactly.
 */
export const XML_TEXT_ESCAPES: readonly (readonly [string, string])[] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['\n', '&#10;'],
  ['\r', '&#13;'],
];

/** Characters XML 1.0 cannot hold, as a regular-expression class (dropped from cell text). */
export const XML_DROPPED_CHARS = '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]';

/** Text whose leading or trailing whitespace a reader keeps only with `xml:space="preserve"`. */
export const EDGE_WHITESPACE = '^\\s|\\s$';

/**
 * An inline-string cell is `open(ref)`, then `preserve` when the text has EDGE_WHITESPACE, then `>`,
 * the escaped text and `close`. Empty cells are left out of a row.
 */
export const INLINE_CELL = {
  open: (ref: string) => `<c r="${ref}" t="inlineStr"><is><t`,
  preserve: ' xml:space="preserve"',
  close: '</t></is></c>',
} as const;

const DROPPED = new RegExp(XML_DROPPED_CHARS.slice(0, -1) + '\\ufffe\\uffff]', 'g');
const EDGE = new RegExp(EDGE_WHITESPACE);

/**
 * Text as XML element content (XML_TEXT_ESCAPES applied, XML_DROPPED_CHARS and U+FFFE/U+FFFF dropped).
 *
 * @param s - any text
 * @returns the text as element content
 */
export function xmlText(s: string): string {
  let out = s;
  for (const [from, to] of XML_TEXT_ESCAPES) out = out.replaceAll(from, to);
  return out.replace(DROPPED, '');
}

/**
 * Worksheet row `r` (1-based) of inline-string cells with their references (`<c r="B7" …>`), empty
 * cells left out, as one line ending in a line feed.
 *
 * @param cells - the row's cells, in column order
 * @param r - the 1-based row number
 * @returns the row's XML
 */
export function rowXml(cells: string[], r: number): string {
  let xml = `<row r="${r}">`;
  cells.forEach((c, i) => {
    if (!c) return;
    const space = EDGE.test(c) ? INLINE_CELL.preserve : '';
    xml += `${INLINE_CELL.open(`${columnLetters(i + 1)}${r}`)}${space}>${xmlText(c)}${INLINE_CELL.close}`;
  });
  return `${xml}</row>\n`;
}
