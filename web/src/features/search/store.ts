import { useCallback } from 'react';
import { create } from 'zustand';
import type { FileType } from '@sift/shared/contracts';
import { NO_FILE_FILTER, type FileFilter } from './fileFilter';

/** A submitted per-column search: the criteria and the (zero-based) page. */
export interface ColumnSearchRequest {
  searchCriteria: Record<string, string>;
  page: number;
  size: number;
  /** Rows sorted by this column's value on the engine (unset: file, sheet and row order). */
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  /** Accents must match too (set only when true: by default `muller` finds `Müller`). */
  matchAccents?: boolean;
  /** Every copy of a record exported twice (set only when true: by default each is shown once). */
  everyCopy?: boolean;
}

/** The sort fields of a request (or a saved search), if it sorts: `sortOrder` then `asc` unless `desc`. */
export function sortOf(
  sorted: { sortBy?: string | undefined; sortOrder?: 'asc' | 'desc' | undefined } | null,
): Pick<ColumnSearchRequest, 'sortBy' | 'sortOrder'> {
  return sorted?.sortBy ? { sortBy: sorted.sortBy, sortOrder: sorted.sortOrder ?? 'asc' } : {};
}

/** How rows match, as a request carries it. */
export type Matching = Pick<ColumnSearchRequest, 'matchAccents' | 'everyCopy'>;

/**
 * `matchAccents` and `everyCopy` as a request carries them: each present only when true (by
 * default accents do not count and a record exported twice is shown once).
 */
export function matchingOf(
  from: { matchAccents?: boolean | undefined; everyCopy?: boolean | undefined } | null | undefined,
): Matching {
  return {
    ...(from?.matchAccents ? { matchAccents: true } : {}),
    ...(from?.everyCopy ? { everyCopy: true } : {}),
  };
}

/**
 * What a request (or a saved search) carries beside its criteria and page: its sort (see sortOf)
 * and how rows match (see matchingOf).
 */
export function searchOptionsOf(
  from: {
    sortBy?: string | undefined;
    sortOrder?: 'asc' | 'desc' | undefined;
    matchAccents?: boolean | undefined;
    everyCopy?: boolean | undefined;
  } | null,
): Pick<ColumnSearchRequest, 'sortBy' | 'sortOrder' | 'matchAccents' | 'everyCopy'> {
  return { ...sortOf(from), ...matchingOf(from) };
}

/** What one search screen (Search: GENERAL files, Authors: AUTHOR files) keeps between visits. */
export interface ScreenSearchState {
  /** Text typed per column. */
  values: Record<string, string>;
  /** The submitted search (null until the first one). */
  request: ColumnSearchRequest | null;
  /** The initial search has run (it runs once, spec section 4). */
  autoSearched: boolean;
  /** Columns hidden in Column Settings (every other available column is visible). */
  hidden: readonly string[];
  /** The file filter (general search only). */
  filter: FileFilter;
  /** Columns whose facets are shown; null until the person chooses (see defaultFacetColumns). */
  facets: readonly string[] | null;
  /** The results grid shows columns no row of the page fills (left out by default). */
  showEmpty: boolean;
  /**
   * Columns the person added an input for with the column picker (the criteria bar shows these and
   * the columns with text typed; see criteriaColumns).
   */
  inputs: readonly string[];
  /** The criteria bar shows every visible column's input (the spec's full form). */
  allInputs: boolean;
}

const INITIAL: ScreenSearchState = {
  values: {},
  request: null,
  autoSearched: false,
  hidden: [],
  filter: NO_FILE_FILTER,
  facets: null,
  showEmpty: false,
  inputs: [],
  allInputs: false,
};

type Patch = Partial<ScreenSearchState> | ((state: ScreenSearchState) => Partial<ScreenSearchState>);

/**
 * Client state of the two search screens, kept while the person moves between tabs (the results
 * themselves are server state, cached by TanStack Query under the request). Lives in memory only:
 * signing out leaves the page, which clears it.
 */
export interface SearchStoreState {
  screens: Record<FileType, ScreenSearchState>;
  update: (fileType: FileType, patch: Patch) => void;
}

export const useSearchStore = create<SearchStoreState>()((set) => ({
  screens: { GENERAL: INITIAL, AUTHOR: INITIAL },
  update: (fileType, patch) =>
    set((state) => {
      const current = state.screens[fileType];
      const change = typeof patch === 'function' ? patch(current) : patch;
      return { screens: { ...state.screens, [fileType]: { ...current, ...change } } };
    }),
}));

/** One screen's state and its updater. */
export function useScreenSearchState(fileType: FileType): [ScreenSearchState, (patch: Patch) => void] {
  const state = useSearchStore((s) => s.screens[fileType]);
  const update = useSearchStore((s) => s.update);
  const updateScreen = useCallback((patch: Patch) => update(fileType, patch), [update, fileType]);
  return [state, updateScreen];
}
