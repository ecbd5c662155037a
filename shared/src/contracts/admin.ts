/** Administration (spec section 9): account management, statistics, audit, data maintenance. */
import { z } from 'zod';
import type { Account } from './accounts.ts';

/** `GET /api/admin/accounts/list` query (spec section 9: page size 10, page from 0, sorted by full name). */
export const adminAccountListSchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(10),
  onboarded: z.enum(['true', 'false']).optional(),
  active: z.enum(['true', 'false']).optional(),
  sortBy: z.enum(['fullName', 'email', 'createdAt']).default('fullName'),
  sortOrder: z.enum(['asc', 'desc']).default('asc'),
});

/** `GET /api/admin/accounts/search?query=&page=&size=`: name or email containing `query`. */
export const adminAccountSearchSchema = z.object({
  query: z.string().trim().max(200).default(''),
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(10),
});

/** `PUT /api/admin/accounts/{accountId}` body: the fields to change. */
export const adminAccountUpdateSchema = z
  .object({
    active: z.boolean().optional(),
    onboarded: z.boolean().optional(),
    firstName: z.string().trim().min(1, 'First name is required').max(200).optional(),
    lastName: z.string().trim().min(1, 'Last name is required').max(200).optional(),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    'Nothing to change: send active, onboarded, firstName or lastName.',
  );

/** An account in the admin lists: the account plus when it was created. */
export interface AdminAccount extends Account {
  createdAt: string;
}

/** `DELETE /api/admin/accounts/{id}`: what went with the account. */
export interface AccountDeletion {
  accountId: string;
  filesDeleted: number;
  exportsDeleted: number;
  savedQueriesDeleted: number;
  uploadSessionsDeleted: number;
}

/** `GET /api/admin/stats?accountId=`: one account's data in numbers. */
export interface AccountStats {
  accountId: string;
  files: number;
  generalFiles: number;
  authorFiles: number;
  failedFiles: number;
  /** Rows of the account's PROCESSED files. */
  rows: number;
  exports: number;
  savedQueries: number;
  /** Bytes of the account's uploaded originals and kept exports. */
  storageBytes: number;
}

/**
 * `GET /api/admin/system/stats`: the whole installation. `storage` is bytes on disk: ClickHouse
 * (every table of Sift's database), originals (DATA_DIR/blobs) and kept exports (DATA_DIR/exports).
 * `queue` counts ingest jobs by state.
 */
export interface SystemStats {
  accounts: number;
  activeAccounts: number;
  files: number;
  rows: number;
  exports: number;
  storage: { clickhouseBytes: number; originalsBytes: number; exportsBytes: number };
  queue: { waiting: number; active: number; delayed: number; failed: number };
}

/** An ingest job as the administrators' queue view lists it (see AdminQueueView). */
export interface AdminQueueJob {
  /** The job's id (the file's, or a re-ingest's own). */
  id: string;
  state: 'active' | 'waiting' | 'delayed' | 'failed';
  fileId: string;
  /** The name the user uploaded. */
  fileName: string;
  ownerId: string;
  /** The owner's email ('' when the account is gone). */
  ownerEmail: string;
  /** Tries made so far, and how many it has. */
  attemptsMade: number;
  attempts: number;
  /** Where an active job stands: its stage's description and 0–100 within it; null before any. */
  stage: string | null;
  stageProgress: number | null;
  /** The worker process that took it (`host:pid`), if one did. */
  processedBy: string | null;
  /** ISO times: queued; taken by a worker (null while waiting). */
  queuedAt: string;
  startedAt: string | null;
  /** Why its last try failed, if it did. */
  failedReason: string | null;
}

/**
 * `GET /api/admin/queue`: the ingest queue now: jobs by state, how long the oldest waiting job has
 * waited (seconds; null with none waiting), and the jobs themselves: every active one, then the
 * waiting ones in the order they will be taken, the delayed (retries waiting out their backoff)
 * and the most recently failed, at most `limit` of each (`?limit=`, default 50).
 */
export interface AdminQueueView {
  counts: { waiting: number; active: number; delayed: number; failed: number };
  oldestWaitingSeconds: number | null;
  jobs: AdminQueueJob[];
}

/** `GET /api/admin/audit?page=&size=`: what administrators did, newest first. */
export interface AuditEntry {
  id: string;
  createdAt: string;
  actorId: string;
  actorEmail: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/**
 * What an admin maintenance call did (spec section 3, "Deletion result"; the field names are the
 * contract). Counts are of records: files (`fileRecordsDeleted`, with `filesDeleted` the stored
 * originals removed), searchable rows (`fileDataRecordsDeleted`), export history entries, upload
 * sessions; `clickHouseCollectionsCleared` counts tables emptied, `clickHouseReindexed` files queued
 * for re-ingest. A part that failed leaves its error in `clickHouseError` / `uploadTrackingError`.
 */
export interface DeletionResult {
  filesDeleted: number;
  fileDataRecordsDeleted: number;
  exportHistoryRecordsDeleted: number;
  fileRecordsDeleted: number;
  totalRecordsDeleted: number;
  clickHouseCollectionsCleared: number;
  uploadTrackingDataCleared: number;
  clickHouseReindexed: number;
  durationMs: number;
  timestamp: string;
  clickHouseError: string | null;
  uploadTrackingError: string | null;
}

/**
 * The phrase a person types to confirm mass deletion (spec section 7); asking for a confirmation of
 * any maintenance call (`POST /api/admin/confirmations`) needs it.
 */
export const MASS_DELETE_CONFIRMATION = 'DELETE ALL';

/**
 * The destructive admin calls that need a confirmation: the maintenance calls by their path
 * (`DELETE /api/admin/{action}`), restoring a snapshot, deleting an account.
 */
export const CONFIRMED_ACTIONS = [
  'mass-delete-all-files',
  'delete-files',
  'delete-file-data',
  'delete-export-history',
  'clear-clickhouse',
  'clear-upload-tracking',
  'restore',
  'delete-account',
] as const;
export type ConfirmedAction = (typeof CONFIRMED_ACTIONS)[number];

/** How long a confirmation may wait for its call, in seconds. */
export const CONFIRMATION_TTL_SECONDS = 300;

/**
 * `POST /api/admin/confirmations` body: the call to confirm, what it acts on (`target`: the snapshot
 * for `restore`, the account for `delete-account`) and, for the maintenance calls, the typed phrase
 * (MASS_DELETE_CONFIRMATION).
 */
export const confirmationRequestSchema = z.object({
  action: z.enum(CONFIRMED_ACTIONS, {
    error: `Say which call to confirm: one of ${CONFIRMED_ACTIONS.join(', ')}.`,
  }),
  target: z.string().max(200).optional(),
  phrase: z.string().max(100).optional(),
});
export type ConfirmationRequest = z.infer<typeof confirmationRequestSchema>;

/**
 * A confirmation (`POST /api/admin/confirmations`): the token the call must carry (body
 * `confirmation` or header `X-Confirm`), good once, for CONFIRMATION_TTL_SECONDS, for the
 * administrator who asked, that call and target, and the files as they were: `files` of every
 * account (of the account, for `delete-account`). If any file is added or removed meanwhile the call
 * answers 409 and changes nothing.
 */
export interface Confirmation {
  token: string;
  action: ConfirmedAction;
  target: string;
  files: number;
  /** ISO 8601, UTC. */
  expiresAt: string;
}

/**
 * A snapshot (`POST /api/admin/restore/snapshots` creates one, `GET` lists them newest first):
 * everything needed to bring the installation back to the moment it was taken — accounts, file
 * records, stored originals, searchable rows, export history (records and files) and saved queries
 * — kept under `DATA_DIR/snapshots/{id}`. The counts are those of that moment; `sizeBytes` is the
 * snapshot's own size on disk (originals and export files are hard links where the disk allows).
 */
export interface Snapshot {
  id: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Email of the administrator who took it. */
  createdBy: string;
  accounts: number;
  files: number;
  rows: number;
  exports: number;
  originals: number;
  sizeBytes: number;
}

/** Body of `POST /api/admin/restore/execute`. */
export const restoreRequestSchema = z.object({
  snapshotId: z.string({ error: 'Say which snapshot to restore: snapshotId is required.' }).min(1, {
    error: 'Say which snapshot to restore: snapshotId is required.',
  }),
});
export type RestoreRequest = z.infer<typeof restoreRequestSchema>;

/**
 * Answer of `POST /api/admin/restore/execute`: the installation now holds exactly the snapshot's
 * accounts, files, rows, originals and export history (the audit log is kept, and records the
 * restore). Upload tracking in Redis is not part of a snapshot and is left as it is.
 */
export interface RestoreResult {
  snapshotId: string;
  accountsRestored: number;
  filesRestored: number;
  rowsRestored: number;
  exportsRestored: number;
  originalsRestored: number;
  durationMs: number;
  /** When the restore finished, ISO 8601, UTC. */
  timestamp: string;
}
