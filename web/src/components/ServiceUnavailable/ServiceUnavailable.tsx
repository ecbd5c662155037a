import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

export interface ServiceUnavailableProps {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
  /** Shown only when someone is signed in. */
  onLogout?: () => void;
}

/** Spec section 2: the error screen titled Service Unavailable. */
export function ServiceUnavailable({
  message,
  onRetry,
  retrying = false,
  onLogout,
}: ServiceUnavailableProps) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={520} w="100%">
        <Stack align="center" gap="md">
          <ThemeIcon color="red" variant="light" size={56} radius="xl" aria-hidden>
            <Text fw={700} size="xl">
              !
            </Text>
          </ThemeIcon>
          <Title order={1} size="h2" ta="center">
            Service Unavailable
          </Title>
          <Text ta="center" role="alert">
            {message}
          </Text>
          <Group justify="center">
            <Button variant="default" onClick={() => window.location.reload()}>
              Refresh Page
            </Button>
            {onLogout && (
              <Button variant="default" color="red" onClick={onLogout}>
                Logout
              </Button>
            )}
            <Button onClick={onRetry} loading={retrying}>
              Try Again
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
