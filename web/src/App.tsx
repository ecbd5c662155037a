import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { isApiError } from './api/client';
import { HydrationGate } from './auth/HydrationGate';
import { Router } from './Router';
import { theme } from './theme';

/** Spec section 7: refetch on focus, reconnect and every mount; unused cache kept 60 s. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 60_000,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
      refetchOnMount: true,
      // A 4xx answer will not change by asking again; network and server failures get two more tries.
      retry: (failureCount, error) => {
        if (isApiError(error) && typeof error.status === 'number' && error.status < 500) return false;
        return failureCount < 2;
      },
    },
  },
});

export default function App() {
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" limit={20} />
      <QueryClientProvider client={queryClient}>
        <HydrationGate>
          <Router />
        </HydrationGate>
      </QueryClientProvider>
    </MantineProvider>
  );
}
