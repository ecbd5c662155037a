/**
 * Pure logic of upload tracking on the Upload screen and in the background watcher: percentages,
 * per-file display rules, and when an upload session counts as complete (spec section 4).
 */
import type { TrackedFile, UploadFileStatus, UploadSessionSummary } from '@sift/shared/contracts';

/** Spec section 4. */
export const UPLOAD_COMPLETE_MESSAGE = 'Upload complete! All files processed successfully.';

/**
 * `42%` / `42.5%`: clamped to 0–100 and rounded down, so nothing reads 100% before it is done
 * (99.96 with one decimal is 99.9%, not 100.0%).
 */
export function formatPercent(value: number, decimals: 0 | 1): string {
  const factor = decimals === 1 ? 10 : 1;
  const clamped = Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
  // The epsilon undoes binary noise (0.29 * 100 = 28.999999999999996) before rounding down.
  const floored = Math.floor(clamped * factor + 1e-9) / factor;
  return `${floored.toFixed(decimals)}%`;
}

/** 'x of y files processed': completed plus failed over total. */
export function processedText(session: UploadSessionSummary['session']): string {
  return `${session.completedFiles + session.failedFiles} of ${session.totalFiles} files processed`;
}

const ACTIVE_STATUSES: ReadonlySet<UploadFileStatus> = new Set([
  'PENDING',
  'UPLOADING',
  'PREPROCESSING',
  'PROCESSING',
]);

/** Still on its way (shows a spinner). */
export function isFileActive(file: Pick<TrackedFile, 'status'>): boolean {
  return ACTIVE_STATUSES.has(file.status);
}

/** Stage n of m is known and the file is being worked on (stage 1 is reported as PREPROCESSING). */
export function showsStage(file: Pick<TrackedFile, 'status' | 'currentStage' | 'totalStages'>): boolean {
  return (
    (file.status === 'PROCESSING' || file.status === 'PREPROCESSING') &&
    file.currentStage > 0 &&
    file.totalStages > 0
  );
}

/** A status in words a person reads (the badge shows this; screen readers read it too). */
export function fileStatusLabel(status: UploadFileStatus): string {
  switch (status) {
    case 'PENDING':
      return 'Pending';
    case 'UPLOADING':
      return 'Uploading';
    case 'PREPROCESSING':
      return 'Preprocessing';
    case 'PROCESSING':
      return 'Processing';
    case 'COMPLETED':
      return 'Completed';
    case 'FAILED':
      return 'Failed';
  }
}

export function fileStatusColor(status: UploadFileStatus): 'gray' | 'blue' | 'yellow' | 'green' | 'red' {
  switch (status) {
    case 'PENDING':
      return 'gray';
    case 'UPLOADING':
    case 'PREPROCESSING':
      return 'blue';
    case 'PROCESSING':
      return 'yellow';
    case 'COMPLETED':
      return 'green';
    case 'FAILED':
      return 'red';
  }
}

/**
 * The item shown after `current` in a rotation (spec section 4: with more than one active session
 * the displayed one rotates): the next one, wrapping; the first when `current` is gone.
 */
export function nextInRotation<T>(items: readonly T[], current: T | null): T | null {
  if (items.length === 0) return null;
  const index = current === null ? -1 : items.indexOf(current);
  return items[(index + 1) % items.length] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Completion

/** A session the watcher waits on: seen active with files, or uploaded by this tab. */
export interface WatchedSession {
  /** When it became watched (ms since epoch): only a poll sent later can tell that it is gone. */
  since: number;
  /** Uploaded from this tab. */
  own: boolean;
}

export type CompletionReason =
  /** The server says `isCompleted`. */
  | 'flagged'
  /** Finalized and every file COMPLETED. */
  | 'all-completed'
  /** It had files and now lists none. */
  | 'emptied'
  /** It had files and is no longer among the active sessions. */
  | 'gone';

export interface SessionCompletion {
  sessionId: string;
  reason: CompletionReason;
  /** The session as last polled, or null when it is no longer listed ('gone'). */
  summary: UploadSessionSummary | null;
}

export interface CompletionInput {
  watched: Readonly<Record<string, WatchedSession>>;
  /** Sessions already reported (each is reported once). */
  notified: ReadonlySet<string>;
  /** The active sessions as polled (`GET /api/upload-tracking/sessions/summary`). */
  active: readonly UploadSessionSummary[];
  /** When that poll was sent (ms since epoch). */
  requestedAt: number;
}

/**
 * Which sessions just completed (spec section 4: the server flags it completed, every file is
 * COMPLETED, or a session that had files and was active now has none), and the sessions to keep
 * watching. "Every file COMPLETED" is only trusted once the session is finalized: between two
 * groups of one upload, the first group may be done while the next is still to come.
 */
export function detectCompletions(input: CompletionInput): {
  completions: SessionCompletion[];
  watched: Record<string, WatchedSession>;
} {
  const { notified, active, requestedAt } = input;
  const watched: Record<string, WatchedSession> = { ...input.watched };
  const completions: SessionCompletion[] = [];
  const listed = new Set<string>();

  for (const summary of active) {
    const id = summary.session.id;
    listed.add(id);
    if (notified.has(id)) {
      delete watched[id];
      continue;
    }
    const { files, session } = summary;
    let reason: CompletionReason | null = null;
    if (session.isCompleted) reason = 'flagged';
    else if (session.finalized && files.length > 0 && files.every((f) => f.status === 'COMPLETED'))
      reason = 'all-completed';
    else if (files.length === 0 && watched[id]) reason = 'emptied';

    if (reason) {
      completions.push({ sessionId: id, reason, summary });
      delete watched[id];
    } else if (files.length > 0 && !watched[id]) {
      watched[id] = { since: requestedAt, own: false };
    }
  }

  for (const [id, entry] of Object.entries(input.watched)) {
    if (listed.has(id)) continue;
    if (notified.has(id)) {
      delete watched[id];
    } else if (entry.since < requestedAt) {
      completions.push({ sessionId: id, reason: 'gone', summary: null });
      delete watched[id];
    }
  }
  return { completions, watched };
}

/** What to tell the user about a completed session: success, which files failed and why, or nothing known. */
export type CompletionOutcome =
  | { kind: 'success' }
  | { kind: 'failed'; failed: Pick<TrackedFile, 'fileName' | 'errorMessage'>[]; total: number }
  | { kind: 'unknown' };

/**
 * The outcome of a completed session from its final summary. Without one the session's tracking is
 * gone (cleared by an administrator, or expired): nothing is known about its files, so nothing is
 * claimed (a success toast there once followed Clear Upload Tracking with no upload made).
 */
export function completionOutcome(summary: UploadSessionSummary | null): CompletionOutcome {
  if (!summary) return { kind: 'unknown' };
  const failed = summary.files.filter((file) => file.status === 'FAILED');
  if (failed.length === 0) return { kind: 'success' };
  return { kind: 'failed', failed, total: summary.files.length };
}

/** The error toast of a session with failed files: a title and a message naming them. */
export function failureToast(outcome: Extract<CompletionOutcome, { kind: 'failed' }>): {
  title: string;
  message: string;
} {
  const count = outcome.failed.length;
  const title =
    count === outcome.total
      ? `Upload failed: ${count === 1 ? 'the file' : `all ${count} files`} could not be processed`
      : `Upload finished with errors: ${count} of ${outcome.total} files could not be processed`;
  const message = outcome.failed
    .map((file) => (file.errorMessage ? `${file.fileName}: ${file.errorMessage}` : file.fileName))
    .join('; ');
  return { title, message };
}
