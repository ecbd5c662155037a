/** Spec sections 5 and 9: at most 25 files included or excluded; a warning from 20. */
export const MAX_FILTER_FILES = 25;
export const FILTER_WARNING_AT = 20;

export type FileFilterMode = 'include' | 'exclude';

/** The general search's file filter: the mode and the files of that mode (the other list is empty). */
export interface FileFilter {
  mode: FileFilterMode;
  fileIds: readonly string[];
}

export const NO_FILE_FILTER: FileFilter = { mode: 'include', fileIds: [] };

const LIMIT_MESSAGES: Record<FileFilterMode, string> = {
  include: 'Maximum of 25 files can be selected at once. Please deselect some files first.',
  exclude: 'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
};

/** Switching mode clears the list (spec section 4); the same mode changes nothing. */
export function switchMode(filter: FileFilter, mode: FileFilterMode): FileFilter {
  return filter.mode === mode ? filter : { mode, fileIds: [] };
}

/**
 * Adds or removes one file in the current mode. Adding a 26th is refused with the spec's message
 * for the mode (`error`), the filter unchanged.
 */
export function toggleFile(filter: FileFilter, fileId: string): { filter: FileFilter; error?: string } {
  if (filter.fileIds.includes(fileId)) {
    return { filter: { ...filter, fileIds: filter.fileIds.filter((id) => id !== fileId) } };
  }
  if (filter.fileIds.length >= MAX_FILTER_FILES) return { filter, error: LIMIT_MESSAGES[filter.mode] };
  return { filter: { ...filter, fileIds: [...filter.fileIds, fileId] } };
}

/** The filter as search request fields: `fileIds` when including, `excludedFileIds` when excluding. */
export function filterScope(filter: FileFilter): { fileIds?: string[]; excludedFileIds?: string[] } {
  if (filter.fileIds.length === 0) return {};
  return filter.mode === 'include'
    ? { fileIds: [...filter.fileIds] }
    : { excludedFileIds: [...filter.fileIds] };
}

/**
 * The filter of search request fields (the inverse of filterScope): `fileIds` when it lists any,
 * else `excludedFileIds`, else no filter.
 */
export function filterOfScope(scope: {
  fileIds?: readonly string[];
  excludedFileIds?: readonly string[];
}): FileFilter {
  if (scope.fileIds?.length) return { mode: 'include', fileIds: scope.fileIds };
  if (scope.excludedFileIds?.length) return { mode: 'exclude', fileIds: scope.excludedFileIds };
  return NO_FILE_FILTER;
}

/** The files a filter leaves in the search, of the searchable ones. */
export function filteredFiles<T extends { id: string }>(files: readonly T[], filter: FileFilter): T[] {
  if (filter.fileIds.length === 0) return [...files];
  const chosen = new Set(filter.fileIds);
  return files.filter((file) => chosen.has(file.id) === (filter.mode === 'include'));
}

/** 'Approaching limit' shows from 20 files. */
export function nearLimit(filter: FileFilter): boolean {
  return filter.fileIds.length >= FILTER_WARNING_AT;
}
