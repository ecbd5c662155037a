import { EMAIL_DOMAIN_FACET, isEmailHeader } from '@sift/shared/contracts';

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

/**
 * What facets can be asked for over `columns`: the columns, then the email-domain facet
 * (EMAIL_DOMAIN_FACET) when one of them holds email addresses.
 */
export function facetChoices(columns: readonly string[]): string[] {
  return columns.some(isEmailHeader) ? [...columns, EMAIL_DOMAIN_FACET] : [...columns];
}

/** A facet's name as shown: its column's, or "Email domains". */
export const facetLabel = (facet: string) => (facet === EMAIL_DOMAIN_FACET ? 'Email domains' : facet);

/** `columns` in their own order, without those in `hidden` (the visible columns of a screen). */
export function visibleColumns(columns: readonly string[], hidden: ReadonlySet<string>): string[] {
  return columns.filter((column) => !hidden.has(column));
}
