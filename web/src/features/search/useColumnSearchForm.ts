import { useCallback, useEffect, useMemo } from 'react';
import type { FileType } from '@sift/shared/contracts';
import {
  matchingOf,
  searchOptionsOf,
  useScreenSearchState,
  type ColumnSearchRequest,
  type Matching,
} from './store';
import { buildCriteria, pageSizeOf, SEARCH_PAGE_SIZE } from './search';

export type { ColumnSearchRequest } from './store';

/**
 * State of a screen's per-column search form, kept in the search store so it survives a visit to
 * another tab: the text typed per column, the submitted request (null until the first search) and
 * paging. Text of columns that are no longer available is dropped; a hidden column keeps its text
 * for when it is shown again, but only visible columns are searched.
 */
export function useColumnSearchForm(
  fileType: FileType,
  columns: { available: readonly string[]; visible: readonly string[] },
  options: { autoSearch: boolean },
) {
  const [state, update] = useScreenSearchState(fileType);
  const { values, request, autoSearched } = state;
  const columnSet = useMemo(() => new Set(columns.available), [columns.available]);
  const visibleSet = useMemo(() => new Set(columns.visible), [columns.visible]);
  const shownValues = useMemo(
    () => Object.fromEntries(Object.entries(values).filter(([column]) => visibleSet.has(column))),
    [values, visibleSet],
  );

  // Re-sync with the available columns: unavailable ones are dropped with their search text. No
  // columns yet (the files are loading) drops nothing: a shared link's text must survive that.
  useEffect(() => {
    if (columnSet.size === 0) return;
    update((current) => {
      const kept = Object.entries(current.values).filter(([column]) => columnSet.has(column));
      return kept.length === Object.keys(current.values).length ? {} : { values: Object.fromEntries(kept) };
    });
  }, [columnSet, update]);

  // The initial search runs once, as soon as there is something to search (page 0).
  useEffect(() => {
    if (options.autoSearch && !autoSearched) {
      update({ autoSearched: true, request: { searchCriteria: {}, page: 0, size: SEARCH_PAGE_SIZE } });
    }
  }, [options.autoSearch, autoSearched, update]);

  const setValue = useCallback(
    (column: string, text: string) =>
      update((current) => ({ values: { ...current.values, [column]: text } })),
    [update],
  );

  /** Submits the form (keeping the sort and accent matching); returns false when the same request is already shown (the caller refetches). */
  const submit = (): boolean => {
    const criteria = buildCriteria(shownValues);
    const next: ColumnSearchRequest = {
      searchCriteria: criteria,
      page: 0,
      size: pageSizeOf(request?.size),
      ...searchOptionsOf(request),
    };
    const same = request !== null && JSON.stringify(request) === JSON.stringify(next);
    if (!same) update({ request: next });
    return !same;
  };

  /** Clears every criterion (keeping how rows match: settings, not criteria). */
  const clear = () =>
    update((current) => ({
      values: {},
      request: {
        searchCriteria: {},
        page: 0,
        size: pageSizeOf(current.request?.size),
        ...matchingOf(current.request),
      },
    }));

  /** How rows match changed (accents, copies): the shown search again from its first page. */
  const setMatching = (change: Partial<Record<keyof Matching, boolean>>) =>
    update((current) => {
      if (!current.request) return {};
      const { matchAccents, everyCopy, ...rest } = current.request;
      return { request: { ...rest, page: 0, ...matchingOf({ matchAccents, everyCopy, ...change }) } };
    });
  /** Accents must match, or not. */
  const setMatchAccents = (on: boolean) => setMatching({ matchAccents: on });
  /** Every copy of a record exported twice, or each once. */
  const setEveryCopy = (on: boolean) => setMatching({ everyCopy: on });

  /** A column header clicked: sorts by it ascending, then descending, then back to file order (page 0). */
  const sortBy = (column: string) =>
    update((current) => {
      if (!current.request) return {};
      const { sortBy: by, sortOrder: order, ...rest } = current.request;
      const next: ColumnSearchRequest = { ...rest, page: 0 };
      if (by !== column) Object.assign(next, { sortBy: column, sortOrder: 'asc' });
      else if (order !== 'desc') Object.assign(next, { sortBy: column, sortOrder: 'desc' });
      return { request: next };
    });

  /**
   * Adds (or replaces) one criterion of the shown search and runs it from its first page (a facet
   * value clicked): its column's input shows the text, and a hidden column is shown again.
   */
  const addCriterion = (column: string, text: string) =>
    update((current) => {
      const base = current.request ?? { searchCriteria: {}, page: 0, size: SEARCH_PAGE_SIZE };
      return {
        values: { ...current.values, [column]: text },
        hidden: current.hidden.filter((h) => h !== column),
        request: { ...base, searchCriteria: { ...base.searchCriteria, [column]: text }, page: 0 },
      };
    });

  /** Rows per page: the page that holds the first row shown now. */
  const setPageSize = (size: number) =>
    update((current) => {
      if (!current.request) return {};
      const first = current.request.page * current.request.size;
      const next = pageSizeOf(size);
      return { request: { ...current.request, size: next, page: Math.floor(first / next) } };
    });

  const goToPage = (page: number) =>
    update((current) =>
      current.request ? { request: { ...current.request, page: Math.max(0, page) } } : {},
    );

  const activeTerms = useMemo(() => Object.keys(buildCriteria(shownValues)).length, [shownValues]);

  return {
    values: shownValues,
    setValue,
    request,
    submit,
    clear,
    goToPage,
    setPageSize,
    sortBy,
    setMatchAccents,
    setEveryCopy,
    addCriterion,
    activeTerms,
  };
}
