import { useQuery } from '@tanstack/react-query';
import { type PublicConfig } from '@sift/shared/contracts';
import { apiRequest } from '../api/client';
import { queryKeys } from '../api/queryKeys';

/** `GET /api/config` (no auth): what the SPA needs to sign in. Read once per page load. */
export function usePublicConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => apiRequest<PublicConfig>('/config', { signal }),
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });
}
