import type { ReactNode } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { FullScreenLoader } from '../FullScreenLoader/FullScreenLoader';

/** A list that failed to load: the message and a Try Again button (announced as an alert). */
export function LoadError({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try Again
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * What a screen shows instead of its list while the list's query has nothing to show: the loader
 * ('Loading your data...') while pending, LoadError after a failure with no data. Null once there is
 * data (a failed refetch keeps showing the last data).
 */
export function queryPlaceholder(
  query: { isPending: boolean; isError: boolean; data: unknown; refetch: () => unknown },
  error: { title: string; message: string },
): ReactNode {
  if (query.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (query.isError && query.data === undefined)
    return <LoadError title={error.title} message={error.message} onRetry={() => void query.refetch()} />;
  return null;
}
