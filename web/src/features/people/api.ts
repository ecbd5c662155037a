/** Server state of the People screen. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PeopleSearchResponse } from '@sift/shared/contracts';
import { apiBlobRequest, apiRequest, EXPORT_TIMEOUT_MS } from '../../api/client';
import { saveBlob } from '../../ui/download';
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

/**
 * `GET /api/file/people/contacts?query=&format=`: the contact list (one row per person, CSV or
 * XLSX), saved under the server's name.
 */
export async function downloadPeopleContacts(query: string, format: 'CSV' | 'XLSX'): Promise<void> {
  const { blob, filename } = await apiBlobRequest('/file/people/contacts', {
    query: { query, format },
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveBlob(blob, filename ?? `people-contacts.${format.toLowerCase()}`);
}
