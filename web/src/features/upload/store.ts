import { create } from 'zustand';
import type { UploadRunProgress } from './uploadRun';
import type { WatchedSession } from './uploadSessions';

/** How many completed sessions the Upload screen keeps showing (newest first). */
export const MAX_FINISHED_SESSIONS = 5;

/** The upload this tab is sending. */
export interface UploadInFlight extends Partial<UploadRunProgress> {
  fileNames: string[];
}

/**
 * Client state of uploads that must outlive the Upload screen (the sessions themselves are server
 * state, polled through TanStack Query): whether this tab is sending an upload (only one at a time,
 * spec section 4) and how far it got, which sessions the background watcher waits on and has
 * already reported (once per session), and which completed sessions the Upload screen still shows.
 */
export interface UploadState {
  uploading: boolean;
  inFlight: UploadInFlight | null;
  watched: Record<string, WatchedSession>;
  notified: ReadonlySet<string>;
  /** Completed session ids, newest first. */
  finished: string[];
  /** Claims the single upload slot; false when an upload is already running. */
  beginUpload: (fileNames: string[]) => boolean;
  updateProgress: (progress: UploadRunProgress) => void;
  finishUpload: () => void;
  /** Waits on a session this tab uploaded (called once it is finalized). */
  watchOwnSession: (sessionId: string, since: number) => void;
  setWatched: (watched: Record<string, WatchedSession>) => void;
  markNotified: (sessionId: string) => void;
  /** A report failed for a transient reason: watch the session again and report it later. */
  rewatch: (sessionId: string, entry: WatchedSession) => void;
  addFinished: (sessionId: string) => void;
  clearFinished: () => void;
}

export const useUploadStore = create<UploadState>()((set, get) => ({
  uploading: false,
  inFlight: null,
  watched: {},
  notified: new Set(),
  finished: [],
  beginUpload: (fileNames) => {
    if (get().uploading) return false;
    set({ uploading: true, inFlight: { fileNames } });
    return true;
  },
  updateProgress: (progress) =>
    set((state) => (state.inFlight ? { inFlight: { ...state.inFlight, ...progress } } : {})),
  finishUpload: () => set({ uploading: false, inFlight: null }),
  watchOwnSession: (sessionId, since) =>
    set((state) =>
      state.notified.has(sessionId)
        ? {}
        : { watched: { ...state.watched, [sessionId]: { since, own: true } } },
    ),
  setWatched: (watched) => set({ watched }),
  markNotified: (sessionId) => set((state) => ({ notified: new Set(state.notified).add(sessionId) })),
  rewatch: (sessionId, entry) =>
    set((state) => {
      const notified = new Set(state.notified);
      notified.delete(sessionId);
      return { notified, watched: { ...state.watched, [sessionId]: entry } };
    }),
  addFinished: (sessionId) =>
    set((state) => ({
      finished: [sessionId, ...state.finished.filter((id) => id !== sessionId)].slice(
        0,
        MAX_FINISHED_SESSIONS,
      ),
    })),
  clearFinished: () => set({ finished: [] }),
}));
