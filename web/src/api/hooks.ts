/**
 * Server state of the SPA: every call of the API goes through a TanStack Query hook here, keyed by
 * the one factory in `queryKeys.ts`; mutations invalidate the keys they change.
 */
import {
  keepPreviousData,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type Query,
} from '@tanstack/react-query';
import type {
  Account,
  ExportRequest,
  FileRecord,
  OnboardRequest,
  PreprocessedSearchRequest,
  PublicConfig,
  SearchRequest,
  SearchResponse,
  UploadMultipleResponse,
} from '@sift/api/contracts';
import { apiBlobRequest, apiRequest, EXPORT_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from './client';
import { mutationKeys, queryKeys } from './queryKeys';
import { saveBlob } from '../lib/download';
import { exportDownloadName, type ExportFormat } from '../lib/exportFilename';

/** Files list polling while any file is PROCESSING. */
export const FILES_POLL_MS = 3_000;
/** Per-file status polling of the files of the current upload. */
export const FILE_STATUS_POLL_MS = 2_000;

// ---------------------------------------------------------------------------------------------
// Configuration and account

/** `GET /api/config` (no auth): what the SPA needs to sign in. Read once per page load. */
export function usePublicConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => apiRequest<PublicConfig>('/config', { signal }),
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });
}

/** `GET /api/accounts/me`: the signed-in account (the server creates it on the first call). */
export function useMe(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.accounts.me(),
    queryFn: ({ signal }) => apiRequest<Account>('/accounts/me', { signal }),
    enabled,
  });
}

function isAccount(value: unknown): value is Account {
  return !!value && typeof value === 'object' && 'id' in value && 'onboarded' in value && 'active' in value;
}

/** `POST /api/accounts/onboard`: completes the profile setup. */
export function useOnboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.onboard,
    mutationFn: (body: OnboardRequest) =>
      apiRequest<Account | undefined>('/accounts/onboard', { method: 'POST', body }),
    onSuccess: async (account) => {
      // Show the main area at once when the answer is the updated account, then confirm with a refetch.
      if (isAccount(account)) queryClient.setQueryData(queryKeys.accounts.me(), account);
      await queryClient.invalidateQueries({ queryKey: queryKeys.accounts.me() });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Files

const anyProcessing = (files: FileRecord[] | undefined) =>
  !!files?.some((file) => file.status === 'PROCESSING');

/** `GET /api/file/files`: the account's files; polls every 3 s while any of them is PROCESSING. */
export function useFiles() {
  return useQuery({
    queryKey: queryKeys.files.list(),
    queryFn: ({ signal }) => apiRequest<FileRecord[]>('/file/files', { signal }),
    refetchInterval: (query: Query<FileRecord[]>) =>
      anyProcessing(query.state.data) ? FILES_POLL_MS : false,
  });
}

function fileQueryOptions(id: string) {
  return {
    queryKey: queryKeys.files.detail(id),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiRequest<FileRecord>(`/file/files/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query: Query<FileRecord>) =>
      !query.state.data || query.state.data.status === 'PROCESSING' ? FILE_STATUS_POLL_MS : false,
  };
}

/** `GET /api/file/files/{id}` for each id, each polled every 2 s until it is no longer PROCESSING. */
export function useFileStatuses(ids: readonly string[]) {
  return useQueries({ queries: ids.map((id) => fileQueryOptions(id)) });
}

/** `DELETE /api/file/files/{id}`. Deleting changes the list and every search. */
export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: (file: Pick<FileRecord, 'id' | 'originalFilename'>) =>
      apiRequest<unknown>(`/file/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' }),
    onSuccess: async (_data, file) => {
      queryClient.removeQueries({ queryKey: queryKeys.files.detail(file.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}

/** `POST /api/file/upload-multiple` (multipart, field `files`, 5 minute time-out). */
export function useUploadFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.upload,
    mutationFn: (files: File[]) => {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      return apiRequest<UploadMultipleResponse>('/file/upload-multiple', {
        method: 'POST',
        body: form,
        timeoutMs: UPLOAD_TIMEOUT_MS,
      });
    },
    onSuccess: async (response) => {
      for (const file of response.files) queryClient.setQueryData(queryKeys.files.detail(file.id), file);
      await queryClient.invalidateQueries({ queryKey: queryKeys.files.list() });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Search and export

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
export function useAuthorsSearch(request: PreprocessedSearchRequest | null) {
  return useQuery({
    queryKey: queryKeys.search.authors(request ?? {}),
    queryFn: ({ signal }) =>
      apiRequest<SearchResponse>('/file/preprocessed/search', { method: 'POST', body: request, signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export interface ExportVariables {
  request: Omit<ExportRequest, 'format' | 'customFilename'>;
  format: ExportFormat;
  customFilename?: string;
}

/** `POST /api/file/export`: streams the file back; saved under the server's filename. */
export function useExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.export,
    mutationFn: async ({ request, format, customFilename }: ExportVariables) => {
      const body: ExportRequest = { ...request, format, ...(customFilename ? { customFilename } : {}) };
      const { blob, filename } = await apiBlobRequest('/file/export', {
        method: 'POST',
        body,
        timeoutMs: EXPORT_TIMEOUT_MS,
      });
      const name = exportDownloadName(filename, customFilename, format);
      saveBlob(blob, name);
      return name;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.exports.all }),
  });
}
