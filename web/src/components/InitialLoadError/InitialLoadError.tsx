import { Alert, Button, Stack, Text } from '@mantine/core';

/** The spec's 'Failed to load initial data' panel with a Try Again button. */
export function InitialLoadError({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">Failed to load initial data. Please try again.</Text>
        <Button size="xs" variant="white" color="red" onClick={onRetry}>
          Try Again
        </Button>
      </Stack>
    </Alert>
  );
}
