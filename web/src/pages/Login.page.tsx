import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { Button, Center, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useAuth } from '../auth/AuthProvider';

/** Spec section 2, /login: the sign-in screen (redirects to / when already signed in). */
export function LoginPage() {
  const { isAuthenticated, login, productName } = useAuth();
  const [starting, setStarting] = useState(false);

  if (isAuthenticated) return <Navigate to="/" replace />;

  const signIn = async () => {
    setStarting(true);
    try {
      await login();
    } finally {
      setStarting(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="md" radius="md" p="xl" maw={480} w="100%">
        <Stack gap="lg">
          <div>
            <Title order={1}>Welcome to {productName}</Title>
            <Text c="dimmed" mt="xs">
              Upload spreadsheets, search every column across files and export what you find.
            </Text>
          </div>
          <List spacing="xs" aria-label="Features">
            <List.Item>Search across multiple Excel files</List.Item>
            <List.Item>Export filtered data to Excel/CSV</List.Item>
            <List.Item>Advanced filtering and sorting</List.Item>
          </List>
          <Button size="md" fullWidth onClick={() => void signIn()} loading={starting}>
            Sign In
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
