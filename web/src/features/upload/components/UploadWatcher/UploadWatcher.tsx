import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { UploadSessionSummary } from '@sift/shared/contracts';
import { isApiError } from '../../../../api/client';
import { uploadSessionSummaryQuery, useActiveUploadSessions } from '../../api';
import { queryKeys } from '../../../../api/queryKeys';
import { notify } from '../../../../ui/notify';
import {
  UPLOAD_COMPLETE_MESSAGE,
  completionOutcome,
  detectCompletions,
  failureToast,
  type SessionCompletion,
} from '../../uploadSessions';
import { useUploadStore } from '../../store';

/** Spec sections 4 and 9: the upload-complete toast shows for 5 seconds. */
export const UPLOAD_COMPLETE_TOAST_MS = 5_000;
/** Failures name files and reasons: give people time to read them. */
const UPLOAD_FAILED_TOAST_MS = 10_000;

/**
 * Polls the active upload sessions from anywhere in the main area (so leaving the Upload screen
 * does not lose the outcome) and reports each session once when it completes: the upload-complete
 * toast, or an error naming the files that failed. Completion also refreshes the files list and
 * every search, since processing may have derived AUTHOR files.
 */
export function UploadWatcher() {
  const queryClient = useQueryClient();
  const snapshot = useActiveUploadSessions().data;

  useEffect(() => {
    if (!snapshot) return;
    const store = useUploadStore.getState();
    const { completions, watched } = detectCompletions({
      watched: store.watched,
      notified: store.notified,
      active: snapshot.sessions,
      requestedAt: snapshot.requestedAt,
    });
    store.setWatched(watched);
    for (const completion of completions) {
      const entry = store.watched[completion.sessionId] ?? { since: snapshot.requestedAt, own: false };
      // Marked before the (async) report, so a poll landing meanwhile cannot report it twice.
      store.markNotified(completion.sessionId);
      report(queryClient, completion).catch((error: unknown) => {
        console.error('Could not read the final state of an upload session', error);
        useUploadStore.getState().rewatch(completion.sessionId, { ...entry, since: Date.now() });
      });
    }
  }, [snapshot, queryClient]);

  return null;
}

/** The final state of a session that left the active list; null when it no longer exists. */
async function finalSummary(
  queryClient: QueryClient,
  completion: SessionCompletion,
): Promise<UploadSessionSummary | null> {
  if (completion.summary) {
    queryClient.setQueryData(queryKeys.uploads.summary(completion.sessionId), completion.summary);
    return completion.summary;
  }
  try {
    return await queryClient.fetchQuery({ ...uploadSessionSummaryQuery(completion.sessionId), staleTime: 0 });
  } catch (error) {
    // Expired or cleaned up: its outcome is unknown.
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

async function report(queryClient: QueryClient, completion: SessionCompletion): Promise<void> {
  const summary = await finalSummary(queryClient, completion);
  const outcome = completionOutcome(summary);
  // 'unknown' (its tracking was cleared or expired): no toast, but the files may have changed.
  if (outcome.kind === 'success') {
    notify.success(UPLOAD_COMPLETE_MESSAGE, {
      id: `upload-complete-${completion.sessionId}`,
      autoClose: UPLOAD_COMPLETE_TOAST_MS,
    });
  } else if (outcome.kind === 'failed') {
    const { title, message } = failureToast(outcome);
    notify.error(message, {
      id: `upload-failed-${completion.sessionId}`,
      title,
      autoClose: UPLOAD_FAILED_TOAST_MS,
    });
  }
  // The Upload screen keeps showing the final state of its files.
  if (summary && summary.files.length > 0) useUploadStore.getState().addFinished(completion.sessionId);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
  ]);
}
