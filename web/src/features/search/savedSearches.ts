/** Server state of saved searches (`/api/file/queries`): list, save, delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FileType, SavedQuery, SaveQueryRequest } from '@sift/shared/contracts';
import { apiRequest } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { filterOfScope, filterScope, type FileFilter } from './fileFilter';
import { SEARCH_PAGE_SIZE } from './search';
import { searchOptionsOf, type ColumnSearchRequest } from './store';

/** `GET /api/file/queries`: the account's saved searches, newest first. */
export function useSavedSearches() {
  return useQuery({
    queryKey: queryKeys.savedSearches.all,
    queryFn: ({ signal }) => apiRequest<SavedQuery[]>('/file/queries', { signal }),
  });
}

/** `POST /api/file/queries`, then the list again. */
export function useSaveSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveQueryRequest) => apiRequest<SavedQuery>('/file/queries', { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedSearches.all }),
  });
}

/** `DELETE /api/file/queries/{id}`, then the list again. */
export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`/file/queries/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedSearches.all }),
  });
}

/** What a screen's current search is saved as under `name`. */
export function toSavedSearch(
  name: string,
  fileType: FileType,
  request: ColumnSearchRequest,
  filter: FileFilter,
): SaveQueryRequest {
  return {
    name,
    fileType,
    searchCriteria: request.searchCriteria,
    ...searchOptionsOf(request),
    ...filterScope(filter),
  };
}

/** The screen state a saved search opens: its criteria (also in the inputs), sort, accent matching and files, page 1. */
export function fromSavedSearch(saved: SavedQuery): {
  request: ColumnSearchRequest;
  filter: FileFilter;
  values: Record<string, string>;
} {
  const request: ColumnSearchRequest = {
    searchCriteria: saved.searchCriteria,
    page: 0,
    size: SEARCH_PAGE_SIZE,
    ...searchOptionsOf(saved),
  };
  return { request, filter: filterOfScope(saved), values: { ...saved.searchCriteria } };
}
