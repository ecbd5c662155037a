/**
 * The HTTP contract of Sift's API (paths relative to `/api`), owned here and imported by the web
 * app through `@sift/api/contracts`. Shapes follow the product spec, section 3; errors are always
 * `ErrorBody` with the right HTTP status.
 */
import { z } from 'zod';

/** Every error answer: `{ error, code }`; `error` is a sentence a person can act on. */
export interface ErrorBody {
  error: string;
  code: string;
}

/** `GET /api/config`: what the SPA needs to sign in, read at run time so one build serves any deployment. */
export interface PublicConfig {
  /** Display name of the product. */
  productName: string;
  oidc: {
    /** Issuer URL (discovery at `${issuer}/.well-known/openid-configuration`). */
    issuer: string;
    clientId: string;
    /**
     * Required `aud` of access tokens. Send it to the provider as the `audience` parameter, and as
     * `resource` (RFC 8707) only when it is an absolute URI (`https://…`, `urn:…`): providers reject
     * a non-URI resource, and the dev IdP maps requests without one to this audience.
     */
    audience: string;
    scope: string;
  };
  /** Access-token claim holding the permission list. */
  permissionsClaim: string;
}

/** An account as `GET /api/accounts/me` returns it. `id` is the token's `sub`. */
export interface Account {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  onboarded: boolean;
}

/** `POST /api/accounts/onboard` body. */
export const onboardRequestSchema = z.object({
  firstName: z.string().trim().min(1, 'First name is required'),
  lastName: z.string().trim().min(1, 'Last name is required'),
});
export type OnboardRequest = z.infer<typeof onboardRequestSchema>;

export const FILE_TYPES = ['GENERAL', 'AUTHOR'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** PROCESSING while ingesting, PROCESSED when searchable, FAILED otherwise (spec: any other value is failed). */
export type FileStatus = 'PROCESSING' | 'PROCESSED' | 'FAILED';

/** A file record (spec section 3). Dates are ISO 8601 strings (UTC). */
export interface FileRecord {
  id: string;
  originalFilename: string;
  /** Generated storage name of the original (never a user path). */
  filename: string;
  fileType: FileType;
  status: FileStatus;
  /** Rows ingested over all sheets (header rows excluded). */
  totalRows: number;
  /** Same as totalRows (the spec names both). */
  rowCount: number;
  totalColumns: number;
  /** Distinct column names over all sheets, in first-seen order. */
  columnNames: string[];
  sheetNames: string[];
  uploadDate: string;
  /** Size of the original upload in bytes. */
  sizeBytes: number;
  /** Why ingest failed (FAILED only), else null. */
  errorMessage: string | null;
  /** For an AUTHOR file: the GENERAL file it was derived from, else null. */
  sourceFileId: string | null;
}

export type {
  TrackedFile,
  UploadFileStatus,
  UploadSession,
  UploadSessionSummary,
} from '@sift/ingest-worker/tracking-types';

/**
 * Single-file uploads (`POST /api/file/upload` field `file`, `/api/parallel/upload-single`) answer
 * 201 `{ file, sessionId }`; a file of the wrong type or content is refused (415), an unsafe or
 * corrupt one too (422). Every upload is tracked in an upload session (`/api/upload-tracking`).
 */
export interface UploadResponse {
  file: FileRecord;
  sessionId: string;
}
/**
 * Multi-file uploads (`/api/file/upload-multiple` field `files`, `/api/parallel/upload`,
 * `/api/parallel/upload-batch[/{sessionId}]`, at most 25 files a request) answer 201
 * `{ files, sessionId }`; a refused file is in `files` with status FAILED and its `errorMessage`,
 * and the others go on.
 */
export interface UploadMultipleResponse {
  files: FileRecord[];
  sessionId: string;
}

/** `POST /api/parallel/upload-session` body: a session that batches will be added to until finalized. */
export const createUploadSessionSchema = z.object({
  sessionName: z.string().trim().max(200).optional(),
});

/** `GET /api/parallel/optimal-batch-size`: how a client should pace its uploads. */
export interface UploadPacing {
  /** Files per request the server handles best. */
  batchSize: number;
  maxFilesPerRequest: number;
  /** Largest accepted file, in bytes. */
  maxFileSizeBytes: number;
}

/**
 * `GET /api/file/upload-stats` and `GET /api/file/statistics`: the caller's files in numbers.
 * Counts are of file records (AUTHOR files included); rows exclude header rows; bytes are uploads'.
 */
export interface FileStatistics {
  totalFiles: number;
  generalFiles: number;
  authorFiles: number;
  processedFiles: number;
  processingFiles: number;
  failedFiles: number;
  /** Rows of PROCESSED GENERAL files (searchable in the general search). */
  generalRows: number;
  /** Rows of PROCESSED AUTHOR files (searchable in the Authors search). */
  authorRows: number;
  /** Distinct column names over PROCESSED GENERAL files. */
  distinctColumns: number;
  totalSizeBytes: number;
  /** ISO 8601, or null with no files. */
  lastUploadDate: string | null;
}

/** `DELETE /api/upload-tracking/cleanup?daysOld=N` answer. */
export interface TrackingCleanupResponse {
  sessionsRemoved: number;
}

/**
 * Column name → search text. Validated by hand rather than with `z.record`, which would turn a
 * column named `__proto__` into the object's prototype and silently drop that criterion; the result
 * has no prototype, so any header name is an ordinary key.
 */
const criteriaSchema = z
  .custom<Record<string, string>>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.values(v).every((t) => typeof t === 'string'),
    'searchCriteria must map column names to search text.',
  )
  .default({})
  .transform((criteria) => {
    // Spec section 5: search text is trimmed and empty entries removed; column names are trimmed.
    const out = Object.create(null) as Record<string, string>;
    for (const [column, text] of Object.entries(criteria)) {
      const name = column.trim();
      const term = text.trim();
      if (name && term) out[name] = term;
    }
    return out;
  });

/** Maximum rows a search page may ask for. */
export const MAX_PAGE_SIZE = 1000;
/** Maximum file ids in fileIds or excludedFileIds (spec section 5). */
export const MAX_FILE_FILTER = 25;

/** `POST /api/file/search` body (spec section 3). `page` is zero-based. */
export const searchRequestSchema = z.object({
  fileIds: z
    .array(z.string())
    .max(MAX_FILE_FILTER, 'Maximum of 25 files can be selected at once. Please deselect some files first.')
    .optional(),
  excludedFileIds: z
    .array(z.string())
    .max(
      MAX_FILE_FILTER,
      'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
    )
    .optional(),
  sheetNames: z.array(z.string()).optional(),
  searchCriteria: criteriaSchema,
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});
export type SearchRequest = z.input<typeof searchRequestSchema>;
export type ParsedSearchRequest = z.output<typeof searchRequestSchema>;

/**
 * Reserved keys carried by every result row beside the column values. Header names equal to one of
 * these are renamed at ingest (`__fileName (2)`), so they never collide.
 */
export const ROW_META = {
  fileId: '__fileId',
  fileName: '__fileName',
  sheet: '__sheet',
  rowNumber: '__rowNumber',
} as const;

/** A result row: column name → cell text, plus the ROW_META keys. */
export type ResultRow = Record<string, string | number>;

/** `POST /api/file/search` and `POST /api/file/preprocessed/search` answer. */
export interface SearchResponse {
  data: ResultRow[];
  totalRecords: number;
  totalPages: number;
  page: number;
  size: number;
  /** Column names of the searched files, in order (the union over files). */
  columns: string[];
  /** false: the search engine is unavailable; `message` says why. */
  searchAvailable: boolean;
  message: string | null;
}

/** `POST /api/file/preprocessed/search` body (Authors search over AUTHOR files). */
export const preprocessedSearchRequestSchema = z.object({
  searchCriteria: criteriaSchema,
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
export type PreprocessedSearchRequest = z.input<typeof preprocessedSearchRequestSchema>;

export const EXPORT_FORMATS = ['XLSX', 'CSV'] as const;

/**
 * `POST /api/file/export` body: the search request plus `format` (spec section 3). The answer is the
 * file itself, streamed, with a `Content-Disposition` filename (`customFilename` + extension, else
 * `search_results_<ISO date>`). `columns` limits and orders the exported columns.
 */
/**
 * A pre-processing rule (spec section 3): split `sourceColumn` and `targetColumn` on `delimiter`
 * into one row per pair (see api/src/search/preprocessing.ts). `name` defaults to 'Rule N'.
 */
export const preprocessingRuleSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  name: z.string().trim().max(200).optional(),
  enabled: z.boolean().default(true),
  sourceColumn: z.string().trim().min(1, 'Each pre-processing rule needs a source column.'),
  targetColumn: z.string().trim().min(1, 'Each pre-processing rule needs a target column.'),
  delimiter: z.string().min(1).max(20).default(';'),
  ruleType: z.literal('split').default('split'),
});
export type PreprocessingRule = z.input<typeof preprocessingRuleSchema>;

/** Rules with their defaults applied, unnamed ones called 'Rule N' (N = position, from 1). */
const preprocessingRulesSchema = z
  .array(preprocessingRuleSchema)
  .max(20)
  .default([])
  .transform((rules) => rules.map((r, i) => ({ ...r, name: r.name || `Rule ${i + 1}` })));

/** One example in a pre-processing preview: a row and the pairs a rule made of it (at most 3 shown). */
export interface ExpansionDetail {
  ruleName: string;
  /** Zero-based position of the row among the matching rows. */
  rowIndex: number;
  sourceColumn: string;
  targetColumn: string;
  originalSourceValue: string;
  originalTargetValue: string;
  matchedPairs: { source: string; target: string }[];
}

/**
 * `POST /api/file/export/preview` (body: an export request with its rules): how many matching rows
 * there are, how many the export will have after pre-processing, and 2 examples of rows that
 * expand, with up to 3 pairs each.
 */
export interface PreprocessingPreview {
  originalCount: number;
  processedCount: number;
  expansionDetails: ExpansionDetail[];
}

export const exportRequestSchema = searchRequestSchema.omit({ page: true, size: true }).extend({
  format: z.enum(EXPORT_FORMATS).default('XLSX'),
  columns: z.array(z.string()).optional(),
  customFilename: z.string().trim().max(200).optional(),
  includeHeaders: z.boolean().default(true),
  /** Add File, Sheet and Row columns before the data columns. */
  includeMetadata: z.boolean().default(false),
  fileType: z.enum(FILE_TYPES).optional(),
  /** Apply `preprocessingRules` (enabled ones, in order) to the exported rows. */
  enablePreprocessing: z.boolean().default(false),
  preprocessingRules: preprocessingRulesSchema,
});
export type ExportRequest = z.input<typeof exportRequestSchema>;

/** A list of file ids in a query string (`a,b,c`) or a JSON body (array). */
const idListSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()).max(10_000).optional(),
);

/**
 * `POST /api/file/columns/for-files` (`fileIds`) and `POST /api/file/columns/excluding`
 * (`excludedFileIds`) bodies; `GET /api/file/columns` takes none. The answer is `string[]`: the
 * distinct column names of the caller's PROCESSED GENERAL files so chosen, first seen first.
 */
export const columnsRequestSchema = searchRequestSchema.pick({ fileIds: true, excludedFileIds: true });

/** Default and largest number of suggestions (spec section 9: 10, 5 for multi-column). */
export const SUGGESTION_LIMIT = 10;
export const MULTI_COLUMN_SUGGESTION_LIMIT = 5;
export const MAX_SUGGESTION_LIMIT = 50;

/**
 * Suggestions for one column: `GET /api/file/autocomplete/{regular|authors}/{columnName}` with query
 * parameters `query`, `limit`, `fileIds` (comma-joined), or `POST` with this as a JSON body (the
 * web app posts when it has more than 50 file ids, or any excluded ids). The answer is `string[]`:
 * distinct values containing `query` (case-insensitive; any value when empty), most frequent
 * first. Regular suggestions come from GENERAL files, authors suggestions from AUTHOR files.
 */
export const autocompleteRequestSchema = z.object({
  query: z.string().trim().max(500).default(''),
  limit: z.coerce.number().int().min(1).max(MAX_SUGGESTION_LIMIT).default(SUGGESTION_LIMIT),
  fileIds: idListSchema,
  excludedFileIds: idListSchema,
});
export type AutocompleteRequest = z.input<typeof autocompleteRequestSchema>;

/**
 * `GET /api/file/autocomplete/columns?columnNames=A,B&query=&limit=`: suggestions for several
 * columns at once (limit default 5 each). Answer: `ColumnSuggestions`, column name → values.
 */
export const multiColumnAutocompleteSchema = autocompleteRequestSchema.extend({
  columnNames: idListSchema,
  limit: z.coerce.number().int().min(1).max(MAX_SUGGESTION_LIMIT).default(MULTI_COLUMN_SUGGESTION_LIMIT),
});
export type ColumnSuggestions = Record<string, string[]>;

/**
 * `GET /api/file/autocomplete/search?query=&limit=`: values in any column of the caller's GENERAL
 * files containing `query`, most frequent first, each with its column.
 */
export interface ValueSuggestion {
  column: string;
  value: string;
}

/** `GET /api/file/files/autocomplete?query=&limit=`: the caller's files whose name contains `query`, newest first. */
export interface FileSuggestion {
  id: string;
  originalFilename: string;
  fileType: FileType;
}

/**
 * An entry of `GET /api/file/exports` (newest first; spec section 3). `exportCriteria` holds the
 * export request's filters as sent, plus `columns`: the number of columns exported. The file itself
 * is at `GET /api/file/exports/{id}/download`; `DELETE /api/file/exports/{id}` removes both (204).
 */
export interface ExportHistoryEntry {
  id: string;
  exportFilename: string;
  exportFormat: (typeof EXPORT_FORMATS)[number];
  rowCount: number;
  createdAt: string;
  sizeBytes: number;
  exportCriteria: Record<string, unknown> & { columns: number };
}

/**
 * `POST /api/file/queries` body: a search to keep under a name (answer 201 `SavedQuery`).
 * `GET /api/file/queries` lists them newest first; `DELETE /api/file/queries/{id}` removes one (204).
 */
export const saveQueryRequestSchema = searchRequestSchema.omit({ page: true, size: true }).extend({
  name: z.string().trim().min(1, 'Please give the search a name').max(200),
  fileType: z.enum(FILE_TYPES).default('GENERAL'),
});
export type SaveQueryRequest = z.input<typeof saveQueryRequestSchema>;

/** A saved search: its name, the search it repeats, and when it was saved. */
export interface SavedQuery {
  id: string;
  name: string;
  fileType: FileType;
  searchCriteria: Record<string, string>;
  fileIds?: string[];
  excludedFileIds?: string[];
  sheetNames?: string[];
  startDate?: string;
  endDate?: string;
  createdAt: string;
}

/**
 * `GET /api/file/preprocessed` and `GET /api/file/preprocessed/status/{status}` query: the caller's
 * AUTHOR files (the "preprocessed" files derived from uploads with author and email columns),
 * sorted by `sortBy` (createdAt = upload date, originalFilename, totalRows) in `sortOrder`. The
 * answer is `FileRecord[]`. `DELETE /api/file/preprocessed/{id}` removes one AUTHOR file (204).
 */
export const preprocessedListSchema = z.object({
  sortBy: z.enum(['createdAt', 'originalFilename', 'totalRows']).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});

/** `GET /api/file/preprocessed/statistics`: the caller's AUTHOR files in numbers. */
export interface PreprocessedStatistics {
  totalFiles: number;
  processedFiles: number;
  failedFiles: number;
  /** Author rows searchable in the Authors search (PROCESSED files). */
  totalRows: number;
  /** Upload date of the newest one (ISO 8601), or null. */
  lastCreatedAt: string | null;
}

/**
 * `PUT /api/accounts/update?firstName=&lastName=`: the caller's names (each optional; a name that is
 * given must not be blank). Answers the updated `Account`.
 */
export const updateAccountQuerySchema = z.object({
  firstName: z.string().trim().min(1, 'First name is required').max(200).optional(),
  lastName: z.string().trim().min(1, 'Last name is required').max(200).optional(),
});

/** `GET /api/accounts/exists/{value}`: whether an account has this id or email. */
export interface AccountExists {
  exists: boolean;
}

/** `GET /api/accounts/{id}/onboarded`. */
export interface AccountOnboarded {
  onboarded: boolean;
}

/** A page of a list (spec section 3, paged account list): `content` and `totalElements`. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  /** Zero-based. */
  page: number;
  size: number;
}

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

/** The confirmation `DELETE /api/admin/mass-delete-all-files` requires (body `confirmation` or header `X-Confirm`). */
export const MASS_DELETE_CONFIRMATION = 'DELETE ALL';

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
