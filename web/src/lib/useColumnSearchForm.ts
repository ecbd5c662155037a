import { useCallback, useEffect, useMemo, useState } from 'react';
import { buildCriteria, SEARCH_PAGE_SIZE } from './search';

export interface ColumnSearchRequest {
  searchCriteria: Record<string, string>;
  page: number;
  size: number;
}

/**
 * State of a per-column search form: the text typed per column, the submitted request (null until
 * the first search) and paging. Text of columns that are no longer available is dropped.
 */
export function useColumnSearchForm(columns: readonly string[], options: { autoSearch: boolean }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [request, setRequest] = useState<ColumnSearchRequest | null>(null);
  const [autoSearched, setAutoSearched] = useState(false);

  const columnSet = useMemo(() => new Set(columns), [columns]);

  // Re-sync with the available columns: unavailable ones are dropped with their search text.
  useEffect(() => {
    setValues((current) => {
      const kept = Object.entries(current).filter(([column]) => columnSet.has(column));
      return kept.length === Object.keys(current).length ? current : Object.fromEntries(kept);
    });
  }, [columnSet]);

  // The initial search runs once, as soon as there is something to search (page 0).
  useEffect(() => {
    if (options.autoSearch && !autoSearched) {
      setAutoSearched(true);
      setRequest({ searchCriteria: {}, page: 0, size: SEARCH_PAGE_SIZE });
    }
  }, [options.autoSearch, autoSearched]);

  const setValue = useCallback((column: string, text: string) => {
    setValues((current) => ({ ...current, [column]: text }));
  }, []);

  /** Submits the form; returns false when the same request is already shown (the caller refetches). */
  const submit = useCallback((): boolean => {
    const criteria = buildCriteria(
      Object.fromEntries(Object.entries(values).filter(([c]) => columnSet.has(c))),
    );
    const next: ColumnSearchRequest = { searchCriteria: criteria, page: 0, size: SEARCH_PAGE_SIZE };
    const same = request !== null && JSON.stringify(request) === JSON.stringify(next);
    if (!same) setRequest(next);
    return !same;
  }, [values, columnSet, request]);

  const clear = useCallback(() => {
    setValues({});
    setRequest({ searchCriteria: {}, page: 0, size: SEARCH_PAGE_SIZE });
  }, []);

  const goToPage = useCallback((page: number) => {
    setRequest((current) => (current ? { ...current, page: Math.max(0, page) } : current));
  }, []);

  const activeTerms = useMemo(() => Object.keys(buildCriteria(values)).length, [values]);

  return { values, setValue, request, submit, clear, goToPage, activeTerms };
}
