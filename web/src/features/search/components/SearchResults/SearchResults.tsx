import { useMemo, useRef } from 'react';
import { Alert, Box, Button, Center, Group, Loader, LoadingOverlay, Stack, Text } from '@mantine/core';
import type { SearchResponse } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { ResultsGrid, type ResultsGridProps } from '../ResultsGrid/ResultsGrid';
import { SearchPager } from '../SearchPager/SearchPager';
import { resultColumns } from '../../columns';

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
  /** Columns no row of the page fills are shown too (they are left out by default). */
  showEmpty?: boolean;
  /** With it, a button shows or hides the empty columns. */
  onShowEmpty?: (show: boolean) => void;
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
  showEmpty,
  onShowEmpty,
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
            showEmpty={showEmpty}
            onShowEmpty={onShowEmpty}
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
  // What the results lack (a database server that cannot be reached), said above them.
  const lacking = data.message ? (
    <Alert color="yellow" role="status" title="Some results may be missing">
      <Text size="sm">{data.message}</Text>
    </Alert>
  ) : null;
  if (data.data.length === 0) {
    return (
      <Stack gap="sm">
        {lacking}
        <Box pos="relative">
          <LoadingOverlay visible={loading} zIndex={5} />
          <Text c="dimmed" ta="center" py="xl">
            No search results found
          </Text>
        </Box>
      </Stack>
    );
  }
  const rows = (
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
      showEmpty={showEmpty}
      onShowEmpty={onShowEmpty}
    />
  );
  return lacking ? (
    <Stack gap="sm">
      {lacking}
      {rows}
    </Stack>
  ) : (
    rows
  );
}

/**
 * A page of rows with its pager: the searched columns first, then those the page's rows fill (see
 * resultColumns), with the count of empty columns left out and the button that shows them.
 */
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
  showEmpty = false,
  onShowEmpty,
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
  | 'showEmpty'
  | 'onShowEmpty'
> & {
  data: SearchResponse;
}) {
  const terms = highlights?.terms;
  const { shown, empty } = useMemo(
    () => resultColumns(columns, data.data, terms ?? {}, { sortBy: sort?.column, showEmpty }),
    [columns, data.data, terms, sort?.column, showEmpty],
  );
  const emptyCount = empty.length;
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
        note={
          onShowEmpty &&
          emptyCount > 0 && (
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                {showEmpty
                  ? `${emptyCount} ${emptyCount === 1 ? 'column has' : 'columns have'} no value on this page`
                  : `${emptyCount} empty ${emptyCount === 1 ? 'column' : 'columns'} hidden`}
              </Text>
              <Button size="compact-xs" variant="subtle" onClick={() => onShowEmpty(!showEmpty)}>
                {showEmpty ? 'Hide empty columns' : 'Show empty columns'}
              </Button>
            </Group>
          )
        }
      />
      <Box pos="relative" aria-busy={loading}>
        <LoadingOverlay visible={loading} zIndex={5} />
        <ResultsGrid
          columns={shown}
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
