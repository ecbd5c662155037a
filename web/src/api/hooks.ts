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
import { SUGGESTION_LIMIT } from '@sift/shared/contracts';
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
  UploadPacing,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import { apiBlobRequest, apiRequest, EXPORT_TIMEOUT_MS, isApiError, UPLOAD_TIMEOUT_MS } from './client';
import { mutationKeys, queryKeys, type SuggestionSource } from './queryKeys';
import { saveBlob } from '../lib/download';
import { exportDownloadName, type ExportFormat } from '../lib/exportFilename';
import { runUpload, type UploadRunOptions, type UploadTransport } from '../lib/uploadRun';
import { useUploadStore } from '../stores/uploadStore';

/** Files list polling while any file is PROCESSING. */
export const FILES_POLL_MS = 3_000;

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

/** `DELETE /api/file/files/{id}` (its AUTHOR file goes with a GENERAL file). */
function deleteFileCall(file: Pick<FileRecord, 'id'>): Promise<unknown> {
  return apiRequest<unknown>(`/file/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
}

/** Deletes one file. Deleting changes the list and every search. */
export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: (file: Pick<FileRecord, 'id' | 'originalFilename'>) => deleteFileCall(file),
    onSuccess: async (_data, file) => {
      queryClient.removeQueries({ queryKey: queryKeys.files.detail(file.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}

/** What a bulk delete did: the files deleted and those that failed (with why). */
export interface BulkDeleteResult {
  deleted: Pick<FileRecord, 'id' | 'originalFilename'>[];
  failed: { file: Pick<FileRecord, 'id' | 'originalFilename'>; error: unknown }[];
}

/**
 * Deletes several files with `DELETE /api/file/files/{id}` each (the API has no bulk call), two at a
 * time; a failure does not stop the others. Resolves with what was deleted and what failed.
 */
export function useDeleteFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: async (files: Pick<FileRecord, 'id' | 'originalFilename'>[]): Promise<BulkDeleteResult> => {
      const result: BulkDeleteResult = { deleted: [], failed: [] };
      const queue = [...files];
      const worker = async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          try {
            await deleteFileCall(file);
            result.deleted.push(file);
          } catch (error) {
            // Already gone (an AUTHOR file goes with the file it was derived from): deleted all the same.
            if (isApiError(error) && error.status === 404) result.deleted.push(file);
            else result.failed.push({ file, error });
          }
        }
      };
      await Promise.all([worker(), worker()]);
      return result;
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Suggestions

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

// ---------------------------------------------------------------------------------------------
// Uploads and upload tracking

/** Spec sections 4 and 9: active upload sessions are polled every 5 s. */
export const ACTIVE_SESSIONS_POLL_MS = 5_000;
/**
 * While this tab has an upload in flight (sending it, or its session still processing) the person
 * is watching it: poll faster so each stage shows and the end is reported promptly.
 */
export const ACTIVE_SESSIONS_FAST_POLL_MS = 1_000;
/** How long the server's upload pacing is reused before it is read again. */
const PACING_STALE_MS = 5 * 60_000;

/** One poll of the active sessions, with when it was sent (completion detection needs both). */
export interface ActiveSessionsSnapshot {
  requestedAt: number;
  sessions: UploadSessionSummary[];
}

/**
 * `GET /api/upload-tracking/sessions/summary`: the account's active upload sessions with their
 * files, newest first; polled every 5 s (1 s while this tab has an upload in flight).
 */
export function useActiveUploadSessions() {
  const fast = useUploadStore(
    (state) => state.uploading || Object.values(state.watched).some((session) => session.own),
  );
  return useQuery({
    queryKey: queryKeys.uploads.active(),
    queryFn: async ({ signal }): Promise<ActiveSessionsSnapshot> => {
      const requestedAt = Date.now();
      const sessions = await apiRequest<UploadSessionSummary[]>('/upload-tracking/sessions/summary', {
        signal,
      });
      return { requestedAt, sessions };
    },
    refetchInterval: fast ? ACTIVE_SESSIONS_FAST_POLL_MS : ACTIVE_SESSIONS_POLL_MS,
  });
}

/**
 * `GET /api/upload-tracking/sessions/{id}/summary`. Used for completed sessions, whose state no
 * longer changes, so the answer is kept rather than refetched.
 */
export function uploadSessionSummaryQuery(sessionId: string) {
  return {
    queryKey: queryKeys.uploads.summary(sessionId),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiRequest<UploadSessionSummary>(`/upload-tracking/sessions/${encodeURIComponent(sessionId)}/summary`, {
        signal,
      }),
    staleTime: Infinity,
  };
}

export function useUploadSessionSummaries(sessionIds: readonly string[]) {
  return useQueries({ queries: sessionIds.map((id) => uploadSessionSummaryQuery(id)) });
}

/** The `/api/parallel/*` calls of one upload (multipart, 5 minute time-out per request). */
function uploadTransport(queryClient: ReturnType<typeof useQueryClient>): UploadTransport<File> {
  return {
    pacing: () =>
      queryClient.fetchQuery({
        queryKey: queryKeys.uploads.pacing(),
        queryFn: ({ signal }) => apiRequest<UploadPacing>('/parallel/optimal-batch-size', { signal }),
        staleTime: PACING_STALE_MS,
        retry: false, // runUpload retries per the upload policy
      }),
    createSession: (sessionName) =>
      apiRequest<UploadSessionSummary>('/parallel/upload-session', {
        method: 'POST',
        body: { sessionName },
      }),
    uploadBatch: (sessionId, files) => {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      return apiRequest<UploadMultipleResponse>(`/parallel/upload-batch/${encodeURIComponent(sessionId)}`, {
        method: 'POST',
        body: form,
        timeoutMs: UPLOAD_TIMEOUT_MS,
      });
    },
    finalize: (sessionId) =>
      apiRequest<UploadSessionSummary>(`/parallel/upload-finalize/${encodeURIComponent(sessionId)}`, {
        method: 'POST',
      }),
  };
}

export interface UploadVariables {
  files: File[];
  onProgress?: UploadRunOptions['onProgress'];
}

/**
 * Uploads one selection as one upload session, paced and retried (see `runUpload`). The new
 * session shows among the active ones at once; the files list refreshes when it is done.
 */
export function useUploadSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.upload,
    mutationFn: ({ files, onProgress }: UploadVariables) =>
      runUpload(files, (file) => file.name, uploadTransport(queryClient), {
        onSession: () => void queryClient.invalidateQueries({ queryKey: queryKeys.uploads.active() }),
        onProgress,
      }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.uploads.active() }),
      ]);
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
