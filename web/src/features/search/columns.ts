/**
 * Low-cardinality headers of Web of Science and Scopus exports (and common lists) whose facets are
 * shown until the person chooses others, in this order.
 */
export const DEFAULT_FACET_HEADERS = [
  'Publication Year',
  'Year',
  'Document Type',
  'Language',
  'Language of Original Document',
  'Source Title',
  'Country',
];
/** Most facets shown by default. */
const DEFAULT_FACETS = 4;

/** The facet columns of a screen before the person chooses: DEFAULT_FACET_HEADERS it has, up to four. */
export function defaultFacetColumns(columns: readonly string[]): string[] {
  const present = new Set(columns);
  return DEFAULT_FACET_HEADERS.filter((h) => present.has(h)).slice(0, DEFAULT_FACETS);
}

/** `columns` in their own order, without those in `hidden` (the visible columns of a screen). */
export function visibleColumns(columns: readonly string[], hidden: ReadonlySet<string>): string[] {
  return columns.filter((column) => !hidden.has(column));
}
