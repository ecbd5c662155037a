/** Server state of the People screen. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PeopleSearchResponse } from '@sift/shared/contracts';
import { apiRequest } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** `POST /api/file/people/search`: a page of the account's people matching `query` (kept while the next loads). */
export function usePeopleSearch(request: { query: string; page: number; size: number }) {
  return useQuery({
    queryKey: queryKeys.people.search(request),
    queryFn: ({ signal }) =>
      apiRequest<PeopleSearchResponse>('/file/people/search', { method: 'POST', body: request, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
