/** Server state of the signed-in account: who they are and their profile setup. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Account, type OnboardRequest } from '@sift/shared/contracts';
import { apiRequest } from '../../api/client';
import { mutationKeys, queryKeys } from '../../api/queryKeys';

/** `GET /api/accounts/me`: the signed-in account (the server creates it on the first call). */
export function useMe(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.accounts.me(),
    queryFn: ({ signal }) => apiRequest<Account>('/accounts/me', { signal }),
    enabled,
  });
}

function isAccount(value: unknown): value is Account {
  return !!value && typeof value === 'object' && 'id' in value && 'onboarded' in value && 'active' in value;
}

/** `POST /api/accounts/onboard`: completes the profile setup. */
export function useOnboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.onboard,
    mutationFn: (body: OnboardRequest) =>
      apiRequest<Account | undefined>('/accounts/onboard', { method: 'POST', body }),
    onSuccess: async (account) => {
      // Show the main area at once when the answer is the updated account, then confirm with a refetch.
      if (isAccount(account)) queryClient.setQueryData(queryKeys.accounts.me(), account);
      await queryClient.invalidateQueries({ queryKey: queryKeys.accounts.me() });
    },
  });
}
