import { useEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useFiles, useGeneralSearch } from '../api/hooks';
import { ColumnSearchForm } from '../components/ColumnSearchForm/ColumnSearchForm';
import { ExportDialog } from '../components/ExportDialog/ExportDialog';
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader';
import { InitialLoadError } from '../components/InitialLoadError/InitialLoadError';
import { SearchResults } from '../components/SearchResults/SearchResults';
import { datedFilename } from '../lib/exportFilename';
import { notify } from '../lib/notify';
import { searchableFiles, unionColumns } from '../lib/search';
import { useColumnSearchForm } from '../lib/useColumnSearchForm';
import { useMinimumDuration } from '../lib/useMinimumDuration';
import { useResultsExport } from '../lib/useResultsExport';
import { useSearchErrorToasts } from '../lib/useSearchErrorToasts';

/** Spec section 9: minimum display of the search loading state. */
const MIN_LOADING_MS = 1_000;

/** /search: per-column search over the PROCESSED GENERAL files. */
export function SearchPage() {
  const files = useFiles();
  const generalFiles = useMemo(() => searchableFiles(files.data, 'GENERAL'), [files.data]);
  const columns = useMemo(() => unionColumns(generalFiles), [generalFiles]);
  const hasFiles = generalFiles.length > 0;

  const form = useColumnSearchForm(columns, { autoSearch: hasFiles });
  const search = useGeneralSearch(hasFiles ? form.request : null);
  const loading = useMinimumDuration(search.isFetching, MIN_LOADING_MS);
  useSearchErrorToasts(search, form.request?.page ?? 0);

  const exporter = useResultsExport({
    request: form.request ? { searchCriteria: form.request.searchCriteria } : null,
    results: search.data,
  });

  const initialErrorShown = useRef(false);
  useEffect(() => {
    if (files.isError && !files.data && !initialErrorShown.current) {
      initialErrorShown.current = true;
      notify.error('Failed to load initial data. Please try again.');
    }
  }, [files.isError, files.data]);

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return <InitialLoadError title="Search" onRetry={() => void files.refetch()} />;
  }

  const processing = files.data.some((file) => file.fileType === 'GENERAL' && file.status === 'PROCESSING');

  const runSearch = () => {
    if (!hasFiles) {
      notify.error('No files available for search. Please upload files first.');
      return;
    }
    if (!form.submit()) void search.refetch();
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Search
        </Title>
        <Text c="dimmed">
          Search rows across your files by column: partial, case-insensitive matching; all terms must match.
        </Text>
      </div>

      {!hasFiles ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={2} size="h4">
              {processing ? 'Your files are still processing' : 'No files uploaded'}
            </Title>
            <Text c="dimmed" ta="center">
              {processing
                ? 'Search becomes available as soon as processing finishes.'
                : 'No files available for search. Please upload files first.'}
            </Text>
            <Button component={Link} to="/upload">
              Upload Files
            </Button>
          </Stack>
        </Paper>
      ) : (
        <>
          <Paper withBorder p="md" radius="md">
            <ColumnSearchForm
              columns={columns}
              values={form.values}
              onChange={form.setValue}
              onSubmit={runSearch}
              onClear={form.clear}
              searching={loading}
              activeTerms={form.activeTerms}
              extraActions={
                <Button variant="light" onClick={exporter.open} disabled={exporter.exporting}>
                  Export Results
                </Button>
              }
            />
          </Paper>
          <SearchResults
            idle={form.request === null}
            loading={loading}
            data={search.data}
            error={search.error}
            fallbackColumns={columns}
            withSource
            caption={`Search results in ${generalFiles.length} ${generalFiles.length === 1 ? 'file' : 'files'}`}
            onPage={form.goToPage}
            onRetry={() => void search.refetch()}
          />
          <ExportDialog
            opened={exporter.opened}
            onClose={exporter.close}
            onExport={exporter.run}
            exporting={exporter.exporting}
            totalRecords={search.data?.totalRecords ?? 0}
            defaultFilename={datedFilename('search_results_')}
          />
        </>
      )}
    </Stack>
  );
}
