/** Spec section 9: the Files list shows 20 files a page. */
export const FILES_PAGE_SIZE = 20;
/** Spec section 2: the 'Go to' box shows only when there are more pages than this. */
export const GO_TO_ABOVE_PAGES = 10;

/** Pages needed for `total` items (at least 1, so 'Page 1 of 1' shows for an empty list). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The items of zero-based `page`. */
export function pageSlice<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice(page * size, (page + 1) * size);
}

/** `page` moved inside 0 … pages − 1 (after the list shrank under it). */
export function clampPage(page: number, pages: number): number {
  return Math.min(Math.max(0, page), Math.max(0, pages - 1));
}

/**
 * The zero-based page a 'Go to' entry asks for: a whole number from 1 to `totalPages` as typed
 * (surrounding spaces ignored), else null (the box then keeps the current page).
 */
export function parseGoTo(text: string, totalPages: number): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 && n <= totalPages ? n - 1 : null;
}
