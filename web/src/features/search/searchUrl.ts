/**
 * A search screen's state in its URL's query string, so a reload keeps the search, the back button
 * goes to the search before, and a copied link opens the same search (issue 23):
 *
 *   /search?q.Authors=smith&q.Country=japan&include=<id>,<id>&hide=Abstract&sort=Title&order=desc&accents=exact&size=100&page=2
 *
 * `q.<column>`: a submitted criterion; `include` / `exclude`: the file filter (general search);
 * `hide`: a column hidden in Column Settings (repeated); `sort` and `order` (`asc` unless `desc`);
 * `accents=exact`: accents must match; `size`: rows per page, left out for the spec's 20;
 * `page`: one-based, left out for the first. Pure: no router, no store.
 */
import { filterOfScope } from './fileFilter';
import { pageSizeOf, SEARCH_PAGE_SIZE } from './search';
import { matchingOf, sortOf, type ColumnSearchRequest, type ScreenSearchState } from './store';

const CRITERION = 'q.';
const KNOWN = new Set(['include', 'exclude', 'hide', 'sort', 'order', 'accents', 'copies', 'size', 'page']);

/** What of a screen's state the URL holds. */
export type UrlSearchState = Pick<ScreenSearchState, 'request' | 'hidden' | 'filter'>;

/** The query string (without `?`) for a screen's state; '' before its first search. */
export function searchToUrl(state: UrlSearchState): string {
  const { request, hidden, filter } = state;
  if (!request) return '';
  const params = new URLSearchParams();
  for (const [column, text] of Object.entries(request.searchCriteria))
    params.append(`${CRITERION}${column}`, text);
  if (filter.fileIds.length) params.set(filter.mode, filter.fileIds.join(','));
  for (const column of hidden) params.append('hide', column);
  if (request.sortBy) {
    params.set('sort', request.sortBy);
    if (request.sortOrder === 'desc') params.set('order', 'desc');
  }
  if (request.matchAccents) params.set('accents', 'exact');
  if (request.everyCopy) params.set('copies', 'all');
  if (request.size !== SEARCH_PAGE_SIZE) params.set('size', String(request.size));
  if (request.page > 0) params.set('page', String(request.page + 1));
  return params.toString();
}

/**
 * The state a query string describes, or null when it holds none of these parameters (a bare
 * `/search`: the screen keeps what it has). Criteria with blank text are left out; a page that is
 * not a whole number from 1 reads as the first, a size not offered as 20.
 */
export function searchFromUrl(search: string): UrlSearchState | null {
  const params = new URLSearchParams(search);
  const keys = [...params.keys()];
  if (!keys.some((key) => key.startsWith(CRITERION) || KNOWN.has(key))) return null;
  const searchCriteria = Object.create(null) as Record<string, string>;
  for (const [key, value] of params) {
    const column = key.slice(CRITERION.length).trim();
    if (key.startsWith(CRITERION) && column && value.trim()) searchCriteria[column] = value.trim();
  }
  const page = Number(params.get('page'));
  const request: ColumnSearchRequest = {
    searchCriteria,
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    size: pageSizeOf(Number(params.get('size'))),
    ...sortOf({
      sortBy: params.get('sort')?.trim(),
      sortOrder: params.get('order') === 'desc' ? 'desc' : 'asc',
    }),
    ...matchingOf({
      matchAccents: params.get('accents') === 'exact',
      everyCopy: params.get('copies') === 'all',
    }),
  };
  const ids = (mode: 'include' | 'exclude') =>
    (params.get(mode) ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
  const filter = filterOfScope({ fileIds: ids('include'), excludedFileIds: ids('exclude') });
  return { request, hidden: params.getAll('hide'), filter };
}
