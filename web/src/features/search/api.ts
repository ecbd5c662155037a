/** Server state of searches: the general and Authors searches and a column's value suggestions. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  type AuthorSearchRequest,
  type SearchRequest,
  type SearchResponse,
  SUGGESTION_LIMIT,
} from '@sift/shared/contracts';
import { apiRequest } from '../../api/client';
import { queryKeys, type SuggestionSource } from '../../api/queryKeys';

/** Spec section 9: with more file ids than this, suggestions are asked for with POST. */
export const SUGGESTION_POST_ABOVE_IDS = 50;

/**
 * Whether a suggestion request goes as POST (spec section 7): regular suggestions when there are
 * more than 50 file ids or any excluded ids; authors suggestions only when there are more than 50
 * file ids and no excluded ids.
 */
export function suggestionUsesPost(source: SuggestionSource): boolean {
  const many = (source.fileIds?.length ?? 0) > SUGGESTION_POST_ABOVE_IDS;
  const excluded = (source.excludedFileIds?.length ?? 0) > 0;
  return source.kind === 'regular' ? many || excluded : many && !excluded;
}

/**
 * `/api/file/autocomplete/{regular|authors}/{column}`: up to 10 distinct values of the column
 * containing `query` (any value when empty), most frequent first. Only runs while `enabled` (the
 * input has the focus); answers are kept for 30 s.
 */
export function useColumnSuggestions(
  source: SuggestionSource,
  column: string,
  query: string,
  enabled: boolean,
) {
  return useQuery({
    queryKey: queryKeys.suggestions.column(source, column, query),
    queryFn: ({ signal }) => {
      const path = `/file/autocomplete/${source.kind}/${encodeURIComponent(column)}`;
      const params = { query, limit: SUGGESTION_LIMIT };
      return suggestionUsesPost(source)
        ? apiRequest<string[]>(path, {
            method: 'POST',
            body: { ...params, fileIds: source.fileIds, excludedFileIds: source.excludedFileIds },
            signal,
          })
        : apiRequest<string[]>(path, {
            query: { ...params, fileIds: source.fileIds?.length ? source.fileIds.join(',') : undefined },
            signal,
          });
    },
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** `POST /api/file/search` for the submitted request (null: nothing submitted yet). */
export function useGeneralSearch(request: SearchRequest | null) {
  return useQuery({
    queryKey: queryKeys.search.general(request ?? {}),
    queryFn: ({ signal }) =>
      apiRequest<SearchResponse>('/file/search', { method: 'POST', body: request, signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** `POST /api/file/preprocessed/search`: the Authors search over AUTHOR files. */
export function useAuthorsSearch(request: AuthorSearchRequest | null) {
  return useQuery({
    queryKey: queryKeys.search.authors(request ?? {}),
    queryFn: ({ signal }) =>
      apiRequest<SearchResponse>('/file/preprocessed/search', { method: 'POST', body: request, signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
