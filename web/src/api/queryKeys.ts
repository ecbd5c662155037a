import type { AuthorSearchRequest, SearchRequest } from '@sift/shared/contracts';

/**
 * The one query-key factory. Keys are hierarchical so a mutation can invalidate a whole family
 * (for example every search after a file is deleted) with the family's `all` key.
 */
export const queryKeys = {
  config: ['config'] as const,
  accounts: {
    all: ['accounts'] as const,
    me: () => [...queryKeys.accounts.all, 'me'] as const,
  },
  files: {
    all: ['files'] as const,
    list: () => [...queryKeys.files.all, 'list'] as const,
    detail: (id: string) => [...queryKeys.files.all, 'detail', id] as const,
    report: (id: string) => [...queryKeys.files.all, 'report', id] as const,
  },
  search: {
    all: ['search'] as const,
    general: (request: SearchRequest) => [...queryKeys.search.all, 'general', request] as const,
    authors: (request: AuthorSearchRequest) => [...queryKeys.search.all, 'authors', request] as const,
  },
  suggestions: {
    all: ['suggestions'] as const,
    column: (source: SuggestionSource, column: string, query: string) =>
      [...queryKeys.suggestions.all, source, column, query] as const,
  },
  savedSearches: {
    all: ['saved-searches'] as const,
  },
  exports: {
    all: ['exports'] as const,
    list: () => [...queryKeys.exports.all, 'list'] as const,
  },
  people: {
    all: ['people'] as const,
    search: (request: object) => [...queryKeys.people.all, 'search', request] as const,
    suggest: (prefix: string) => [...queryKeys.people.all, 'suggest', prefix] as const,
    person: (id: string) => [...queryKeys.people.all, 'person', id] as const,
    sameName: (accountId: string, page: number, size: number) =>
      [...queryKeys.people.all, 'same-name', accountId, page, size] as const,
  },
  admin: {
    all: ['admin'] as const,
    accounts: (params: AdminAccountsParams) => [...queryKeys.admin.all, 'accounts', params] as const,
    systemStats: () => [...queryKeys.admin.all, 'system-stats'] as const,
    snapshots: () => [...queryKeys.admin.all, 'snapshots'] as const,
    queue: () => [...queryKeys.admin.all, 'queue'] as const,
  },
  uploads: {
    all: ['uploads'] as const,
    pacing: () => [...queryKeys.uploads.all, 'pacing'] as const,
    /** The active upload sessions with their files (what the Upload screen and the watcher poll). */
    active: () => [...queryKeys.uploads.all, 'active'] as const,
    summary: (sessionId: string) => [...queryKeys.uploads.all, 'summary', sessionId] as const,
    /** The configured FTP/SFTP import location's listing. */
    location: () => [...queryKeys.uploads.all, 'location'] as const,
  },
} as const;

/** Mutation keys, so any component can tell whether one is running (`useIsMutating`). */
export const mutationKeys = {
  upload: ['upload'] as const,
  importFromLocation: ['importFromLocation'] as const,
  onboard: ['onboard'] as const,
  deleteFile: ['deleteFile'] as const,
  reingest: ['reingest'] as const,
  export: ['export'] as const,
  deleteExport: ['deleteExport'] as const,
  updateAccount: ['updateAccount'] as const,
  deleteAccount: ['deleteAccount'] as const,
  maintenance: ['maintenance'] as const,
  snapshot: ['snapshot'] as const,
} as const;

/** Where a column's suggestions come from: GENERAL (`regular`) or AUTHOR files, and which ones. */
export interface SuggestionSource {
  kind: 'regular' | 'authors';
  fileIds?: string[];
  excludedFileIds?: string[];
}

/** What the admin account list is asked for (spec section 7: page, size, and active unless 'all'). */
export interface AdminAccountsParams {
  page: number;
  size: number;
  active?: boolean;
}
