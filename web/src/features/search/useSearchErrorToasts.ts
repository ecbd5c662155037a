import { useEffect, useRef } from 'react';
import { notify } from '../../ui/notify';

/** Toasts each new search failure once (spec section 8): a first page or a later page. */
export function useSearchErrorToasts(query: { isError: boolean; errorUpdatedAt: number }, page: number) {
  const lastShown = useRef(0);
  useEffect(() => {
    if (query.isError && query.errorUpdatedAt > lastShown.current) {
      lastShown.current = query.errorUpdatedAt;
      notify.error(page > 0 ? 'Failed to load page. Please try again.' : 'Search failed. Please try again.');
    }
  }, [query.isError, query.errorUpdatedAt, page]);
}
