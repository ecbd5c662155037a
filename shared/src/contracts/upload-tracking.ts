/**
 * Shapes of upload tracking (spec section 3: upload session, session summary, per-file fields), as
 * the api serves them under `/api/upload-tracking`.
 */

/** Per-file states, in order of a normal life. */
export const UPLOAD_FILE_STATUSES = [
  'PENDING',
  'UPLOADING',
  'PREPROCESSING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
] as const;
export type UploadFileStatus = (typeof UPLOAD_FILE_STATUSES)[number];

/** A tracked file (spec section 3: upload session file). Percentages are 0–100. */
export interface TrackedFile {
  fileId: string;
  fileName: string;
  fileType: 'GENERAL' | 'AUTHOR';
  status: UploadFileStatus;
  isActive: boolean;
  isCompleted: boolean;
  errorMessage: string | null;
  progressPercentage: number;
  currentStage: number;
  totalStages: number;
  stageProgress: number;
  stageDescription: string;
  /** ISO 8601: when the file joined the session (the list's order) and when it last changed. */
  addedAt: string;
  updatedAt: string;
}

/** An upload session (spec section 3). `isCompleted`: finalized and every file COMPLETED or FAILED. */
export interface UploadSession {
  id: string;
  sessionName: string;
  totalFiles: number;
  completedFiles: number;
  failedFiles: number;
  /** Mean of the files' progress, 0–100. */
  progressPercentage: number;
  isActive: boolean;
  isCompleted: boolean;
  /** No more files will be added (implicit sessions are finalized at once). */
  finalized: boolean;
  createdAt: string;
}

/** A session with its files (`GET /api/upload-tracking/sessions/{id}/summary`). */
export interface UploadSessionSummary {
  session: UploadSession;
  files: TrackedFile[];
}
