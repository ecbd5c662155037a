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
      return String(SSF.format(numFmt, value));
    } catch {
      return cellText(value);
    }
  }
  return cellText(value);
}
