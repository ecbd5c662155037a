import { SSF } from '@e965/xlsx';
import { cellText } from './cell-text.ts';

/**
 * A cell as a spreadsheet program shows it: a number with a number format other than General is
 * formatted with it (leading zeros of a phone number or ID, percentages, thousands separators),
 * since identifiers stored as numbers must read exactly as shown; anything else as cellText gives.
 *
 * @param value - the cell's value as read
 * @param numFmt - the cell's number format code, if any
 * @returns the text
 */
export function shownText(value: unknown, numFmt: string | null | undefined): string {
  if (typeof value === 'number' && numFmt && numFmt !== 'General') {
    try {
      return String(SSF.format(withoutLocaleTags(numFmt), value));
    } catch {
      return cellText(value);
    }
  }
  return cellText(value);
}

/**
 * `[$-415]`, `[$-409]`, `[$-F800]`: a locale tag with no currency symbol, which Excel shows as
 * nothing (the number in that locale's style). SheetJS's formatter shows `$` for it, so `7.1` in a
 * Polish statistical workbook read `$7.1`. A tag with a symbol (`[$€-407]`) is left to SheetJS.
 */
const LOCALE_TAG = /\[\$-[0-9A-Fa-f]+\]/g;

/** The number format without its symbol-less locale tags (see LOCALE_TAG), outside quoted text. */
function withoutLocaleTags(numFmt: string): string {
  return numFmt
    .split(/("[^"]*")/)
    .map((part) => (part.startsWith('"') ? part : part.replace(LOCALE_TAG, '')))
    .join('');
}
