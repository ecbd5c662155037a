import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useAuthorsSearch, useFiles } from '../api/hooks';
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

const MIN_LOADING_MS = 1_000;

/** /authors: per-column search over the AUTHOR files (one author and their email per row). */
export function AuthorsPage() {
  const files = useFiles();
  const authorFiles = useMemo(() => searchableFiles(files.data, 'AUTHOR'), [files.data]);
  const columns = useMemo(() => unionColumns(authorFiles), [authorFiles]);
  const hasAuthorFiles = authorFiles.length > 0;

  const form = useColumnSearchForm(columns, { autoSearch: hasAuthorFiles });
  const search = useAuthorsSearch(hasAuthorFiles ? form.request : null);
  const loading = useMinimumDuration(search.isFetching, MIN_LOADING_MS);
  useSearchErrorToasts(search, form.request?.page ?? 0);

  const exporter = useResultsExport({
    request: form.request ? { searchCriteria: form.request.searchCriteria, fileType: 'AUTHOR' } : null,
    results: search.data,
    defaultFilename: () => datedFilename('authors_search_results_'),
  });

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return <InitialLoadError title="Authors Search" onRetry={() => void files.refetch()} />;
  }

  const noFilesAtAll = files.data.length === 0;
  const filtersActive = form.activeTerms > 0;

  const runSearch = () => {
    if (!hasAuthorFiles) {
      notify.error('No author files available for search');
      return;
    }
    if (!form.submit()) void search.refetch();
  };

  return (
    <Stack gap="lg">
      <div>
        <Group gap="sm">
          <Title order={1} size="h2">
            Authors Search
          </Title>
          {filtersActive && (
            <Badge color="blue" variant="filled">
              Filters Active
            </Badge>
          )}
        </Group>
        <Text c="dimmed">Search pre-processed author data with column-specific criteria.</Text>
      </div>

      {hasAuthorFiles ? (
        <Alert color="blue" variant="light">
          Tip: all author files are automatically included in your search
        </Alert>
      ) : (
        <Alert color="yellow" variant="light">
          No author files found: upload files containing Authors and Email Addresses columns to enable the
          Authors search feature
        </Alert>
      )}

      {noFilesAtAll ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={2} size="h4">
              No files uploaded
            </Title>
            <Button component={Link} to="/upload">
              Upload Files
            </Button>
          </Stack>
        </Paper>
      ) : (
        <>
          <Paper withBorder p="md" radius="md">
            {hasAuthorFiles ? (
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
            ) : (
              <Stack gap="sm">
                <Text fw={600}>Search in Specific Columns</Text>
                <Text c="dimmed">No columns available / No pre-processed files found</Text>
                <Group>
                  <Button disabled>Search</Button>
                  <Button variant="default" disabled>
                    Clear All
                  </Button>
                </Group>
              </Stack>
            )}
          </Paper>
          {hasAuthorFiles && (
            <SearchResults
              idle={form.request === null}
              loading={loading}
              data={search.data}
              error={search.error}
              fallbackColumns={columns}
              withSource={false}
              caption={`Author search results in ${authorFiles.length} author ${authorFiles.length === 1 ? 'file' : 'files'}`}
              onPage={form.goToPage}
              onRetry={() => void search.refetch()}
            />
          )}
          <ExportDialog
            opened={exporter.opened}
            onClose={exporter.close}
            onExport={exporter.run}
            exporting={exporter.exporting}
            totalRecords={search.data?.totalRecords ?? 0}
            defaultFilename={datedFilename('authors_search_results_')}
          />
        </>
      )}
    </Stack>
  );
}
