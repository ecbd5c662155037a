/**
 * Turns a spreadsheet cell value into the text Sift stores: numbers as JavaScript prints them,
 * dates in ISO form (`2024-05-31`, or `2024-05-31T08:30:00Z` when there is a time of day),
 * booleans as TRUE/FALSE, formulas as their cached result, rich text and hyperlinks as their text.
 *
 * @param value - a cell value as the readers give it
 * @returns the stored text
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('result' in v) return cellText(v.result);
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: string }) => r.text ?? '').join('');
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return String(v.error);
    if ('formula' in v || 'sharedFormula' in v) return '';
  }
  return String(value);
}

function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/**
 * Drops trailing empty cells, so a row's length is its last non-empty cell.
 *
 * @param cells - a row's cells
 * @returns the row without trailing empty cells
 */
export function trimRow(cells: string[]): string[] {
  let end = cells.length;
  while (end > 0 && !cells[end - 1]) end--;
  return end === cells.length ? cells : cells.slice(0, end);
}
