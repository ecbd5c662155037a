/** Server state of uploads: sending a selection as one upload session, and polling sessions' progress. */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type UploadMultipleResponse,
  type UploadPacing,
  type UploadSessionSummary,
} from '@sift/shared/contracts';
import { apiRequest, UPLOAD_TIMEOUT_MS } from '../../api/client';
import { mutationKeys, queryKeys } from '../../api/queryKeys';
import { runUpload, type UploadRunOptions, type UploadTransport } from './uploadRun';
import { useUploadStore } from './store';

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
    createSession: (sessionName, expectedFiles) =>
      apiRequest<UploadSessionSummary>('/parallel/upload-session', {
        method: 'POST',
        body: { sessionName, expectedFiles },
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
