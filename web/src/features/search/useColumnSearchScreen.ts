import { useEffect, useMemo, useRef, useState } from 'react';
import type { FileRecord, FileType, SavedQuery } from '@sift/shared/contracts';
import { unionColumns } from '@sift/shared/contracts';
import { useAuthorsSearch, useGeneralSearch } from './api';
import { useFiles } from '../files';
import { fromSavedSearch } from './savedSearches';
import { matchingOf, useScreenSearchState } from './store';
import type { SuggestionSource } from '../../api/queryKeys';
import { defaultFacetColumns, facetChoices, visibleColumns } from './columns';
import { datedFilename } from '../export';
import { notify } from '../../ui/notify';
import { searchableFiles } from './search';
import { useColumnSearchForm } from './useColumnSearchForm';
import { useMinimumDuration } from '../../hooks/useMinimumDuration';
import { useResultsExport } from '../export';
import { useSearchErrorToasts } from './useSearchErrorToasts';

/** Spec section 9: minimum display of the search loading state. */
export const MIN_LOADING_MS = 1_000;

/** Which GENERAL files a general search covers (the file filter; at most one list is set). */
export interface FileScope {
  fileIds?: string[];
  excludedFileIds?: string[];
}

/**
 * Everything the Search (GENERAL files) and Authors (AUTHOR files) screens share: the files list, the
 * searchable files of the type and their columns, which columns are visible (all at first; the
 * Column Settings dialog hides some), the per-column form, the search itself (loading held at least
 * 1 s, failures toasted), and the export. `scope` narrows a general search to chosen files, and
 * `columnsOf` picks the files whose columns are offered (default: all searchable files).
 */
export function useColumnSearchScreen(
  fileType: FileType,
  options: { scope?: FileScope; columnsOf?: (files: FileRecord[]) => FileRecord[] } = {},
) {
  const files = useFiles();
  const typed = useMemo(() => searchableFiles(files.data, fileType), [files.data, fileType]);
  const { columnsOf } = options;
  const columns = useMemo(() => unionColumns(columnsOf ? columnsOf(typed) : typed), [typed, columnsOf]);
  const [
    { hidden: hiddenList, filter: searchFilter, facets: chosenFacets, showEmpty, inputs, allInputs },
    update,
  ] = useScreenSearchState(fileType);
  const hidden = useMemo(() => new Set(hiddenList), [hiddenList]);
  const visible = useMemo(() => visibleColumns(columns, hidden), [columns, hidden]);
  const visibleSet = useMemo(() => new Set(visible), [visible]);
  const setVisible = (next: ReadonlySet<string>) => update({ hidden: columns.filter((c) => !next.has(c)) });
  const [settingsOpen, setSettingsOpen] = useState(false);
  const hasFiles = typed.length > 0;

  // Facets of the chosen columns (the usual low-cardinality ones until the person chooses).
  const facetColumns = useMemo(() => {
    const present = new Set(facetChoices(columns));
    return (chosenFacets ?? defaultFacetColumns(columns)).filter((c) => present.has(c));
  }, [chosenFacets, columns]);
  const setFacetColumns = (next: readonly string[]) => update({ facets: next });

  const form = useColumnSearchForm(fileType, { available: columns, visible }, { autoSearch: hasFiles });
  const scope = fileType === 'GENERAL' ? options.scope : undefined;
  const asked =
    form.request && hasFiles
      ? { ...form.request, ...(facetColumns.length ? { facets: facetColumns } : {}) }
      : null;
  const general = useGeneralSearch(fileType === 'GENERAL' && asked ? { ...asked, ...scope } : null);
  const authors = useAuthorsSearch(fileType === 'AUTHOR' ? asked : null);
  const search = fileType === 'GENERAL' ? general : authors;
  // A search asked for (a new request, or Search pressed again) shows as loading; a refresh in the
  // background of the rows already shown (the window focused again) does not cover them.
  const [askedAgain, setAskedAgain] = useState(false);
  useEffect(() => {
    if (!search.isFetching) setAskedAgain(false);
  }, [search.isFetching]);
  const loading = useMinimumDuration(
    search.isFetching && (askedAgain || search.isPlaceholderData || search.data === undefined),
    MIN_LOADING_MS,
  );
  useSearchErrorToasts(search, form.request?.page ?? 0);

  /** What an export is called when the person gives no filename (spec section 5). */
  const defaultFilename = () =>
    datedFilename(fileType === 'GENERAL' ? 'search_results_' : 'authors_search_results_');
  const matching = matchingOf(form.request);
  const exporter = useResultsExport({
    request: form.request
      ? fileType === 'GENERAL'
        ? { searchCriteria: form.request.searchCriteria, ...matching, ...scope }
        : { searchCriteria: form.request.searchCriteria, ...matching, fileType: 'AUTHOR' }
      : null,
    results: search.data,
    defaultFilename,
  });

  // Spec section 8: the files list failing on the way in is toasted once.
  const initialErrorShown = useRef(false);
  useEffect(() => {
    if (files.isError && !files.data && !initialErrorShown.current) {
      initialErrorShown.current = true;
      notify.error('Failed to load initial data. Please try again.');
    }
  }, [files.isError, files.data]);

  /** Runs the form's search, or says why not (no searchable files). */
  const runSearch = () => {
    if (!hasFiles) {
      notify.error(
        fileType === 'GENERAL'
          ? 'No files available for search. Please upload files first.'
          : 'No author files available for search',
      );
      return;
    }
    if (!form.submit()) {
      setAskedAgain(true);
      void search.refetch();
    }
  };

  const suggestions = useMemo<SuggestionSource>(
    () => (fileType === 'GENERAL' ? { kind: 'regular', ...scope } : { kind: 'authors' }),
    [fileType, scope],
  );

  /** Opens a saved search here: its criteria (in the inputs too), sort and files, page 1. */
  const openSaved = (saved: SavedQuery) => {
    const { request, filter, values } = fromSavedSearch(saved);
    update({ request, values, autoSearched: true, ...(fileType === 'GENERAL' ? { filter } : {}) });
  };

  return {
    fileType,
    filter: searchFilter,
    openSaved,
    files,
    typed,
    hasFiles,
    columns,
    visible,
    visibleSet,
    setVisible,
    facetColumns,
    setFacetColumns,
    showEmpty,
    setShowEmpty: (show: boolean) => update({ showEmpty: show }),
    /** Columns given an input with the column picker, and whether every input is shown. */
    inputs,
    setInputs: (next: readonly string[]) => update({ inputs: next }),
    allInputs,
    setAllInputs: (all: boolean) => update({ allInputs: all }),
    settings: {
      opened: settingsOpen,
      open: () => setSettingsOpen(true),
      close: () => setSettingsOpen(false),
    },
    form,
    search,
    loading,
    exporter,
    defaultFilename,
    runSearch,
    suggestions,
  };
}

export type ColumnSearchScreen = ReturnType<typeof useColumnSearchScreen>;
