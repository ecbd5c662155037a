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

/** The grid's columns for a page of rows (see resultColumns). */
export interface ResultColumns {
  /** The columns to draw, in order. */
  shown: string[];
  /**
   * Visible columns no row of the page has a value in (searched and sorted-by ones aside): left out
   * of `shown` unless `showEmpty`.
   */
  empty: string[];
}

/**
 * The order the results grid shows `visible` columns in for a page of `rows`: the searched columns
 * first (as `criteria` lists them), then the sorted-by column, then the others in their own order;
 * a column no row of the page has a value in is left out unless `showEmpty` (a 122-column page of
 * one file's rows would otherwise open on screens of blank cells). With no rows, `visible` as is.
 */
export function resultColumns(
  visible: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
  criteria: Readonly<Record<string, string>>,
  options: { sortBy?: string | undefined; showEmpty?: boolean } = {},
): ResultColumns {
  if (rows.length === 0) return { shown: [...visible], empty: [] };
  const present = new Set(visible);
  const first = [
    ...Object.keys(criteria).filter((c) => criteria[c]?.trim() && present.has(c)),
    ...(options.sortBy && present.has(options.sortBy) ? [options.sortBy] : []),
  ];
  const leading = [...new Set(first)];
  const ordered = [...leading, ...visible.filter((c) => !leading.includes(c))];
  const hasValue = (column: string) =>
    rows.some((row) => {
      const value = row[column];
      return value !== undefined && value !== null && String(value).trim() !== '';
    });
  const empty = ordered.filter((c) => !leading.includes(c) && !hasValue(c));
  if (options.showEmpty) return { shown: ordered, empty };
  const left = new Set(empty);
  return { shown: ordered.filter((c) => !left.has(c)), empty };
}

/**
 * Headers a person usually searches first (the criteria bar's inputs before any is chosen), best
 * first: a column is taken for the first pattern it matches, one column a pattern.
 */
const USUAL_CRITERIA = [
  /^(article |document )?title$/i,
  /^(authors?|author full names|(full )?name)$/i,
  /e-?mail/i,
  /^(source title|journal|source)$/i,
  /title/i,
  /author/i,
  /name/i,
];
/** How many inputs the criteria bar offers before the person chooses. */
const USUAL_INPUTS = 3;

/**
 * The columns the compact criteria bar shows an input for, in `columns`' order: USUAL_INPUTS
 * columns whose header a person usually searches (a title, the authors or a name, an email, the
 * journal: see USUAL_CRITERIA; the first columns make up the number), those with text typed and those the
 * person `added`.
 */
export function criteriaColumns(
  columns: readonly string[],
  values: Readonly<Record<string, string>>,
  added: readonly string[],
): string[] {
  const found: string[] = [];
  for (const pattern of USUAL_CRITERIA) {
    const column = columns.find((c) => pattern.test(c) && !found.includes(c));
    if (column && found.length < USUAL_INPUTS) found.push(column);
  }
  for (const column of columns)
    if (found.length < USUAL_INPUTS && !found.includes(column)) found.push(column);
  const wanted = new Set([...added, ...found]);
  return columns.filter((c) => wanted.has(c) || (values[c] ?? '').trim() !== '');
}
