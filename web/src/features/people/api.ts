/** Server state of the People screens. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PeopleFilter,
  PeopleSearchRequest,
  PeopleSearchResponse,
  PersonDecisionRequest,
  PersonDecisionResponse,
  PersonPageResponse,
  PersonSummary,
  ResultRow,
  SameNamePairsResponse,
} from '@sift/shared/contracts';
import { apiBlobRequest, apiRequest, errorMessage, EXPORT_TIMEOUT_MS } from '../../api/client';
import { saveBlob } from '../../ui/download';
import { notify } from '../../ui/notify';
import { queryKeys } from '../../api/queryKeys';

/**
 * `POST /api/file/people/search`: a page of the account's people matching the request, with the
 * facets (kept while the next page loads).
 */
export function usePeopleSearch(request: PeopleSearchRequest) {
  return useQuery({
    queryKey: queryKeys.people.search(request),
    queryFn: ({ signal }) =>
      apiRequest<PeopleSearchResponse>('/file/people/search', { method: 'POST', body: request, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** `GET /api/file/people/suggest?prefix=`: names and emails to offer while a search is typed. */
export function usePeopleSuggestions(prefix: string) {
  const trimmed = prefix.trim();
  return useQuery({
    queryKey: queryKeys.people.suggest(trimmed),
    queryFn: ({ signal }) =>
      apiRequest<{ suggestions: string[] }>('/file/people/suggest', { query: { prefix: trimmed }, signal }),
    enabled: trimmed.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

/** `GET /api/file/people/{id}`: one person's page. */
export function usePerson(id: string) {
  return useQuery({
    queryKey: queryKeys.people.person(id),
    queryFn: ({ signal }) =>
      apiRequest<PersonPageResponse>(`/file/people/${encodeURIComponent(id)}`, { signal }),
    retry: false,
  });
}

/** `GET /api/file/people/record`: one entry of a person (its AUTHOR row) for the record drawer. */
export function fetchPersonEntry(at: {
  fileId: string;
  sheet: string;
  rowNumber: number;
}): Promise<ResultRow> {
  return apiRequest<ResultRow>('/file/people/record', {
    query: { file: at.fileId, sheet: at.sheet, row: at.rowNumber },
  });
}

/**
 * Where a review of people of the same name goes: the signed-in owner's people
 * (`/api/file/people`), or, for an administrator, one account's
 * (`/api/admin/accounts/{accountId}/people`).
 */
function reviewPath(accountId: string | undefined): string {
  return accountId ? `/admin/accounts/${encodeURIComponent(accountId)}/people` : '/file/people';
}

/**
 * `GET …/people/same-name?page&size`: a page of pairs of people offered as possibly the same,
 * with what they have in common (the owner's, or `accountId`'s for an administrator).
 */
export function useSameNamePairs(accountId: string | undefined, page: number, size: number) {
  return useQuery({
    queryKey: queryKeys.people.sameName(accountId ?? '', page, size),
    queryFn: ({ signal }) =>
      apiRequest<SameNamePairsResponse>(`${reviewPath(accountId)}/same-name`, {
        query: { page, size },
        signal,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/**
 * `POST …/people/decisions` and `…/decisions/undo`: a decision about two people offered as the
 * same name, or taking one back (the owner's people, or `accountId`'s for an administrator).
 * Every People answer is read again after. `decideAbout` records one and tells the user how it
 * went: it resolves to the person `person` is part of afterwards (a new id once joined), or null
 * when the decision could not be saved.
 */
export function usePersonDecisions(accountId?: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.people.all });
  const path = reviewPath(accountId);
  const decide = useMutation({
    mutationFn: (request: PersonDecisionRequest) =>
      apiRequest<PersonDecisionResponse>(`${path}/decisions`, { method: 'POST', body: request }),
    onSuccess: refresh,
  });
  const decideAbout = async (
    person: PersonSummary,
    other: PersonSummary,
    decision: 'same' | 'apart',
  ): Promise<string | null> => {
    try {
      const { personId } = await decide.mutateAsync({
        personId: person.id,
        otherPersonId: other.id,
        decision,
      });
      notify.success(
        decision === 'same'
          ? `${other.name} and ${person.name} are now one person.`
          : `${other.name} is no longer offered as the same person.`,
      );
      return personId;
    } catch (error) {
      notify.error(`The decision could not be saved: ${errorMessage(error, 'Unknown error')}`);
      return null;
    }
  };
  return {
    decide,
    decideAbout,
    undo: useMutation({
      mutationFn: (keys: { aKey: string; bKey: string }) =>
        apiRequest<void>(`${path}/decisions/undo`, { method: 'POST', body: keys }),
      onSuccess: refresh,
    }),
  };
}

/**
 * `GET /api/file/people/contacts?query=&country=&lastYear=&journal=&format=`: the contact list of
 * the people a filter finds (one row per person, CSV or XLSX), saved under the server's name.
 */
export async function downloadPeopleContacts(filter: PeopleFilter, format: 'CSV' | 'XLSX'): Promise<void> {
  const { blob, filename } = await apiBlobRequest('/file/people/contacts', {
    query: { ...filter, format },
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveBlob(blob, filename ?? `people-contacts.${format.toLowerCase()}`);
}
