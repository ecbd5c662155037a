import { useRef } from 'react';
import { Alert, Box, Button, Center, Loader, LoadingOverlay, Stack, Text } from '@mantine/core';
import type { SearchResponse } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { ResultsGrid, type ResultsGridProps } from '../ResultsGrid/ResultsGrid';
import { SearchPager } from '../SearchPager/SearchPager';

export interface SearchResultsProps {
  /** Nothing submitted yet. */
  idle: boolean;
  /** A search is running (held at least 1 s). */
  loading: boolean;
  data: SearchResponse | undefined;
  error: unknown;
  /** The columns to show (the visible ones), in order. */
  columns: readonly string[];
  withSource: boolean;
  caption: string;
  onPage: (page: number) => void;
  /** Rows per page chosen (see SearchPager). */
  onPageSize?: (size: number) => void;
  onRetry: () => void;
  idleText?: string;
  /** The current sort and the header click that changes it (see ResultsGrid). */
  sort?: ResultsGridProps['sort'];
  onSort?: ResultsGridProps['onSort'];
  highlights?: ResultsGridProps['highlights'];
}

/**
 * The result area of a search: idle, loading, failed, unavailable, empty or a page of rows. A failed
 * search keeps the last page of rows shown below its error (a failed next page does not take the
 * table and pager away).
 */
export function SearchResults({
  idle,
  loading,
  data,
  error,
  columns,
  withSource,
  caption,
  onPage,
  onPageSize,
  onRetry,
  idleText = 'Perform a search to see results.',
  sort,
  onSort,
  highlights,
}: SearchResultsProps) {
  const lastRows = useRef<SearchResponse | null>(null);
  if (data?.searchAvailable && data.data.length > 0) lastRows.current = data;
  if (idle) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {idleText}
      </Text>
    );
  }
  if (!data && loading) {
    return (
      <Center py="xl" role="status" aria-live="polite">
        <Stack align="center" gap="xs">
          <Loader aria-hidden />
          <Text c="dimmed">Searching...</Text>
        </Stack>
      </Center>
    );
  }
  if (error && !loading) {
    const last = lastRows.current;
    return (
      <Stack gap="sm">
        <Alert color="red" title="Search failed" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(error, 'Search failed. Please try again.')}</Text>
            <Button size="xs" variant="white" color="red" onClick={onRetry}>
              Try Again
            </Button>
          </Stack>
        </Alert>
        {last && (
          <RowsPage
            data={last}
            columns={columns}
            withSource={withSource}
            caption={`${caption} (last results shown)`}
            onPage={onPage}
            onPageSize={onPageSize}
            loading={false}
            sort={sort}
            onSort={onSort}
            highlights={highlights}
          />
        )}
      </Stack>
    );
  }
  if (!data) return null;
  if (!data.searchAvailable) {
    return (
      <Alert color="orange" title="Search unavailable" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{data.message || 'Search is temporarily unavailable'}</Text>
          <Button size="xs" variant="white" color="orange" onClick={onRetry} loading={loading}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (data.data.length === 0) {
    return (
      <Box pos="relative">
        <LoadingOverlay visible={loading} zIndex={5} />
        <Text c="dimmed" ta="center" py="xl">
          No search results found
        </Text>
      </Box>
    );
  }
  return (
    <RowsPage
      data={data}
      columns={columns}
      withSource={withSource}
      caption={caption}
      onPage={onPage}
      onPageSize={onPageSize}
      loading={loading}
      sort={sort}
      onSort={onSort}
      highlights={highlights}
    />
  );
}

/** A page of rows with its pager. */
function RowsPage({
  data,
  columns,
  withSource,
  caption,
  onPage,
  onPageSize,
  loading,
  sort,
  onSort,
  highlights,
}: Pick<
  SearchResultsProps,
  | 'columns'
  | 'withSource'
  | 'caption'
  | 'onPage'
  | 'onPageSize'
  | 'loading'
  | 'sort'
  | 'onSort'
  | 'highlights'
> & {
  data: SearchResponse;
}) {
  return (
    <Stack gap="sm">
      <SearchPager
        page={data.page}
        totalPages={data.totalPages}
        size={data.size}
        totalRecords={data.totalRecords}
        onPage={onPage}
        onSize={onPageSize}
        disabled={loading}
      />
      <Box pos="relative" aria-busy={loading}>
        <LoadingOverlay visible={loading} zIndex={5} />
        <ResultsGrid
          columns={columns}
          recordColumns={data.columns.length ? data.columns : columns}
          rows={data.data}
          caption={caption}
          withSource={withSource}
          sort={sort}
          onSort={onSort}
          highlights={highlights}
        />
      </Box>
    </Stack>
  );
}
