import type { FileRecord, FileType, ResultRow } from '@sift/shared/contracts';

/** Spec section 9: search page size. */
export const SEARCH_PAGE_SIZE = 20;

/** The page sizes a person can choose beside the spec's (the results grid draws only the rows in view). */
export const SEARCH_PAGE_SIZES = [20, 50, 100, 500, 1000] as const;

/** `size` when it is one of SEARCH_PAGE_SIZES, else the spec's page size. */
export function pageSizeOf(size: number | null | undefined): number {
  return (SEARCH_PAGE_SIZES as readonly number[]).includes(size ?? NaN) ? size! : SEARCH_PAGE_SIZE;
}

/** Searchable files of a type: PROCESSED only (a half-loaded file is never searched). */
export function searchableFiles(files: readonly FileRecord[] | undefined, fileType: FileType): FileRecord[] {
  return (files ?? []).filter((file) => file.fileType === fileType && file.status === 'PROCESSED');
}

/** Search criteria from the form values: trimmed text, empty entries removed (spec section 5). */
export function buildCriteria(values: Readonly<Record<string, string>>): Record<string, string> {
  const criteria: Record<string, string> = {};
  for (const [column, text] of Object.entries(values)) {
    const name = column.trim();
    const term = (text ?? '').trim();
    if (name && term) criteria[name] = term;
  }
  return criteria;
}

/**
 * Spec section 2: 'Showing N results' when everything fits on one page, otherwise
 * 'Showing a to b of total results'. `page` is zero-based.
 */
export function resultsSummary(page: number, size: number, total: number): string {
  if (total <= size) return `Showing ${total} ${total === 1 ? 'result' : 'results'}`;
  const from = page * size + 1;
  const to = Math.min(total, (page + 1) * size);
  return `Showing ${from} to ${to} of ${total} results`;
}

/** The text of a result cell; missing values are blank. */
export function cellText(row: ResultRow, column: string): string {
  const value = row[column];
  return value === undefined || value === null ? '' : String(value);
}
