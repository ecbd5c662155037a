import { ROW_META } from '@sift/shared/contracts';
import { namedWosTags } from './wos-tags.ts';

/**
 * Reserved keys that every search result row carries beside its cells (file, sheet, row number);
 * no header may take one of these names.
 */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set(Object.values(ROW_META));

/**
 * Makes a header row usable as column names, deterministically: names are trimmed; a blank one
 * becomes `Column N` (N = 1-based position); a repeated or reserved one gets ` (2)`, ` (3)`, ….
 * `taken` holds names already used in this sheet (for headers added later to a ragged sheet).
 *
 * @param raw - the header row's cells
 * @returns a name for each, blanks and duplicates renamed
 */
export function uniqueHeaders(raw: string[], taken: Set<string> = new Set(), offset = 0): string[] {
  return raw.map((cell, i) => {
    const base = cell.trim() || `Column ${offset + i + 1}`;
    let name = base;
    for (let n = 2; taken.has(name) || RESERVED_HEADERS.has(name); n++) name = `${base} (${n})`;
    taken.add(name);
    return name;
  });
}

/**
 * Headers widened to `width` columns with generated names (`Column N`) for a ragged sheet.
 *
 * @param headers - the header row's names
 * @param width - the columns the widest row has
 * @returns the headers, with generated names added
 */
export function widenHeaders(headers: string[], width: number): string[] {
  if (width <= headers.length) return headers;
  const more = uniqueHeaders(
    new Array<string>(width - headers.length).fill(''),
    new Set(headers),
    headers.length,
  );
  return [...headers, ...more];
}

/**
 * A sheet's column names from its header row: Web of Science tags named as its Excel export names
 * them (namedWosTags), then made usable (uniqueHeaders).
 *
 * @param raw - the header row's cells
 * @returns a name for each cell
 */
export function headerNames(raw: string[]): string[] {
  return uniqueHeaders(namedWosTags(raw));
}
