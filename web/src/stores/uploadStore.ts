import { create } from 'zustand';

/**
 * Client state of the Upload screen that must outlive the screen: whether an upload request is
 * running (only one at a time, spec section 4) and which files the latest upload created, so
 * their processing can be watched from anywhere in the main area.
 */
export interface UploadState {
  uploading: boolean;
  /** Ids of the files created by the latest upload, in upload order. */
  fileIds: string[];
  /** When the latest upload was accepted (ms since epoch), or null. */
  startedAt: number | null;
  /** The completion toast has been shown for the current file ids. */
  completionNotified: boolean;
  /** Claims the single upload slot; false when an upload is already running. */
  beginUpload: () => boolean;
  finishUpload: (fileIds: string[] | null) => void;
  markCompletionNotified: () => void;
  clear: () => void;
}

export const useUploadStore = create<UploadState>()((set, get) => ({
  uploading: false,
  fileIds: [],
  startedAt: null,
  completionNotified: false,
  beginUpload: () => {
    if (get().uploading) return false;
    set({ uploading: true });
    return true;
  },
  finishUpload: (fileIds) =>
    set(
      fileIds
        ? { uploading: false, fileIds, startedAt: Date.now(), completionNotified: false }
        : { uploading: false },
    ),
  markCompletionNotified: () => set({ completionNotified: true }),
  clear: () => set({ fileIds: [], startedAt: null, completionNotified: false }),
}));
