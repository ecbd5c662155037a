import { Alert, Box, Button, Center, Loader, LoadingOverlay, Stack, Text } from '@mantine/core';
import type { SearchResponse } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { ResultsTable } from '../ResultsTable/ResultsTable';
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
  onRetry: () => void;
  idleText?: string;
}

/** The result area of a search: idle, loading, failed, unavailable, empty or a page of rows. */
export function SearchResults({
  idle,
  loading,
  data,
  error,
  columns,
  withSource,
  caption,
  onPage,
  onRetry,
  idleText = 'Perform a search to see results.',
}: SearchResultsProps) {
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
    return (
      <Alert color="red" title="Search failed" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(error, 'Search failed. Please try again.')}</Text>
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try Again
          </Button>
        </Stack>
      </Alert>
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
    <Stack gap="sm">
      <SearchPager
        page={data.page}
        totalPages={data.totalPages}
        size={data.size}
        totalRecords={data.totalRecords}
        onPage={onPage}
        disabled={loading}
      />
      <Box pos="relative" aria-busy={loading}>
        <LoadingOverlay visible={loading} zIndex={5} />
        <ResultsTable columns={columns} rows={data.data} caption={caption} withSource={withSource} />
      </Box>
    </Stack>
  );
}
