import { describe, expect, it } from 'vitest';
import type { TrackedFile, UploadSession, UploadSessionSummary } from '@sift/shared/contracts';
import {
  completionOutcome,
  detectCompletions,
  failureToast,
  fileStatusLabel,
  formatPercent,
  isFileActive,
  nextInRotation,
  processedText,
  showsStage,
  type WatchedSession,
} from './uploadSessions';

function trackedFile(overrides: Partial<TrackedFile> = {}): TrackedFile {
  return {
    fileId: 'f1',
    fileName: 'wos.xls',
    fileType: 'GENERAL',
    status: 'PENDING',
    isActive: true,
    isCompleted: false,
    errorMessage: null,
    progressPercentage: 0,
    currentStage: 0,
    totalStages: 0,
    stageProgress: 0,
    stageDescription: '',
    addedAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function summary(
  id: string,
  files: TrackedFile[],
  overrides: Partial<UploadSession> = {},
): UploadSessionSummary {
  const completed = files.filter((f) => f.status === 'COMPLETED').length;
  const failed = files.filter((f) => f.status === 'FAILED').length;
  return {
    session: {
      id,
      sessionName: id,
      totalFiles: files.length,
      completedFiles: completed,
      failedFiles: failed,
      progressPercentage: 0,
      isActive: true,
      isCompleted: false,
      finalized: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      ...overrides,
    },
    files,
  };
}

describe('formatPercent', () => {
  it('shows 0 or 1 decimals', () => {
    expect(formatPercent(42.56, 0)).toBe('42%');
    expect(formatPercent(42.56, 1)).toBe('42.5%');
    expect(formatPercent(100, 0)).toBe('100%');
    expect(formatPercent(100, 1)).toBe('100.0%');
    expect(formatPercent(0, 1)).toBe('0.0%');
  });

  it('never reads 100% before it is, and survives binary noise and bad input', () => {
    expect(formatPercent(99.96, 1)).toBe('99.9%');
    expect(formatPercent(99.6, 0)).toBe('99%');
    expect(formatPercent(0.29 * 100, 0)).toBe('29%');
    expect(formatPercent(Number.NaN, 0)).toBe('0%');
    expect(formatPercent(-5, 0)).toBe('0%');
    expect(formatPercent(250, 1)).toBe('100.0%');
  });
});

describe('per-file display', () => {
  it("counts completed plus failed as processed: 'x of y files processed'", () => {
    const { session } = summary('s', [
      trackedFile({ status: 'COMPLETED' }),
      trackedFile({ status: 'FAILED' }),
      trackedFile({ status: 'PROCESSING' }),
    ]);
    expect(processedText(session)).toBe('2 of 3 files processed');
  });

  it('shows a spinner until a file is COMPLETED or FAILED', () => {
    for (const status of ['PENDING', 'UPLOADING', 'PREPROCESSING', 'PROCESSING'] as const)
      expect(isFileActive({ status })).toBe(true);
    expect(isFileActive({ status: 'COMPLETED' })).toBe(false);
    expect(isFileActive({ status: 'FAILED' })).toBe(false);
    expect(fileStatusLabel('PREPROCESSING')).toBe('Preprocessing');
  });

  it('shows stage n of m only while a file is worked on and the stage is known', () => {
    expect(showsStage({ status: 'PROCESSING', currentStage: 2, totalStages: 3 })).toBe(true);
    expect(showsStage({ status: 'PREPROCESSING', currentStage: 1, totalStages: 3 })).toBe(true);
    expect(showsStage({ status: 'PROCESSING', currentStage: 0, totalStages: 0 })).toBe(false);
    expect(showsStage({ status: 'COMPLETED', currentStage: 3, totalStages: 3 })).toBe(false);
  });
});

describe('nextInRotation', () => {
  it('moves to the next item, wraps, and starts over when the current one is gone', () => {
    expect(nextInRotation(['a', 'b', 'c'], 'a')).toBe('b');
    expect(nextInRotation(['a', 'b', 'c'], 'c')).toBe('a');
    expect(nextInRotation(['a', 'b'], 'gone')).toBe('a');
    expect(nextInRotation(['a'], null)).toBe('a');
    expect(nextInRotation([], 'a')).toBeNull();
  });
});

describe('detectCompletions', () => {
  const none = new Set<string>();
  const run = (
    active: UploadSessionSummary[],
    watched: Record<string, WatchedSession> = {},
    notified: ReadonlySet<string> = none,
    requestedAt = 1_000,
  ) => detectCompletions({ active, watched, notified, requestedAt });

  it('starts watching an active session once it has files', () => {
    const empty = run([summary('s1', [], { finalized: false })]);
    expect(empty).toEqual({ completions: [], watched: {} });
    const withFiles = run([summary('s1', [trackedFile({ status: 'PROCESSING' })])]);
    expect(withFiles.completions).toEqual([]);
    expect(withFiles.watched).toEqual({ s1: { since: 1_000, own: false } });
  });

  it('completes a session the server flags completed', () => {
    const s = summary('s1', [trackedFile({ status: 'FAILED' })], { isCompleted: true, isActive: false });
    expect(run([s]).completions).toEqual([{ sessionId: 's1', reason: 'flagged', summary: s }]);
  });

  it('completes a finalized session whose files are all COMPLETED', () => {
    const s = summary('s1', [
      trackedFile({ status: 'COMPLETED' }),
      trackedFile({ fileId: 'f2', status: 'COMPLETED' }),
    ]);
    expect(run([s]).completions.map((c) => c.reason)).toEqual(['all-completed']);
  });

  it('does not end an upload between two groups (not finalized yet)', () => {
    const s = summary('s1', [trackedFile({ status: 'COMPLETED' })], { finalized: false });
    const result = run([s]);
    expect(result.completions).toEqual([]);
    expect(result.watched).toHaveProperty('s1');
  });

  it('completes a watched session that now has no files', () => {
    const s = summary('s1', []);
    const result = run([s], { s1: { since: 500, own: false } });
    expect(result.completions).toEqual([{ sessionId: 's1', reason: 'emptied', summary: s }]);
    expect(result.watched).toEqual({});
  });

  it('completes a watched session that left the active list, once a later poll shows it', () => {
    const watched = { s1: { since: 500, own: true } };
    expect(run([], watched, none, 1_000)).toEqual({
      completions: [{ sessionId: 's1', reason: 'gone', summary: null }],
      watched: {},
    });
    // A poll sent before the session was watched cannot tell.
    expect(run([], watched, none, 400)).toEqual({ completions: [], watched });
  });

  it('reports each session once', () => {
    const notified = new Set(['s1', 's2']);
    const flagged = summary('s1', [trackedFile({ status: 'COMPLETED' })], { isCompleted: true });
    const result = run([flagged], { s1: { since: 0, own: false }, s2: { since: 0, own: true } }, notified);
    expect(result).toEqual({ completions: [], watched: {} });
  });

  it('keeps watching sessions still at work, and leaves the input untouched', () => {
    const watched = { s1: { since: 0, own: true } };
    const s = summary('s1', [
      trackedFile({ status: 'PROCESSING' }),
      trackedFile({ fileId: 'f2', status: 'COMPLETED' }),
    ]);
    const result = run([s], watched);
    expect(result).toEqual({ completions: [], watched });
    expect(result.watched).not.toBe(watched);
  });
});

describe('completion outcome', () => {
  it('is a success when nothing failed, and unknown when the session is gone', () => {
    expect(completionOutcome(summary('s', [trackedFile({ status: 'COMPLETED' })]))).toEqual({
      kind: 'success',
    });
    expect(completionOutcome(null)).toEqual({ kind: 'unknown' });
  });

  it('names the failed files and why', () => {
    const outcome = completionOutcome(
      summary('s', [
        trackedFile({ status: 'COMPLETED' }),
        trackedFile({ fileId: 'f2', fileName: 'bad.csv', status: 'FAILED', errorMessage: 'Not a CSV file.' }),
        trackedFile({ fileId: 'f3', fileName: 'odd.xls', status: 'FAILED' }),
      ]),
    );
    expect(outcome.kind).toBe('failed');
    if (outcome.kind !== 'failed') return;
    expect(failureToast(outcome)).toEqual({
      title: 'Upload finished with errors: 2 of 3 files could not be processed',
      message: 'bad.csv: Not a CSV file.; odd.xls',
    });
  });

  it('says when nothing could be processed', () => {
    const one = completionOutcome(summary('s', [trackedFile({ status: 'FAILED', errorMessage: 'Empty.' })]));
    if (one.kind !== 'failed') throw new Error('expected a failure');
    expect(failureToast(one).title).toBe('Upload failed: the file could not be processed');
  });
});
