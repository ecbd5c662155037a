/** Server state of the admin screens: accounts and data maintenance (spec sections 2 and 7). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, EXPORT_TIMEOUT_MS } from '../../api/client';
import { type AdminAccountsParams, mutationKeys, queryKeys } from '../../api/queryKeys';
import {
  type AdminAccount,
  type DeletionResult,
  MASS_DELETE_CONFIRMATION,
  type Page,
} from '@sift/shared/contracts';

/** `GET /api/admin/accounts/list?page&size[&active]`, sorted by full name (kept while the next page loads). */
export function useAdminAccounts(params: AdminAccountsParams) {
  return useQuery({
    queryKey: queryKeys.admin.accounts(params),
    queryFn: ({ signal }) =>
      apiRequest<Page<AdminAccount>>('/admin/accounts/list', {
        query: {
          page: params.page,
          size: params.size,
          active: params.active,
          sortBy: 'fullName',
          sortOrder: 'asc',
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `PUT /api/admin/accounts/{id}` with `{active}`: activates or deactivates an account. */
export function useSetAccountActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.updateAccount,
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      apiRequest<AdminAccount>(`/admin/accounts/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { active },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}

/** `DELETE /api/admin/accounts/{id}`: the account with its files, rows, exports and sessions. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteAccount,
    mutationFn: (id: string) =>
      apiRequest<unknown>(`/admin/accounts/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}

// ---------------------------------------------------------------------------------------------
// Admin: data maintenance

/** The maintenance calls of the System Admin screen (spec section 7, Admin). */
export const MAINTENANCE_CALLS = {
  files: { method: 'DELETE', path: '/admin/delete-files' },
  fileData: { method: 'DELETE', path: '/admin/delete-file-data' },
  exportHistory: { method: 'DELETE', path: '/admin/delete-export-history' },
  searchIndex: { method: 'DELETE', path: '/admin/clear-clickhouse' },
  uploadTracking: { method: 'DELETE', path: '/admin/clear-upload-tracking' },
  reindex: { method: 'POST', path: '/admin/reindex-clickhouse' },
  massDelete: { method: 'DELETE', path: '/admin/mass-delete-all-files' },
} as const;
export type MaintenanceKind = keyof typeof MAINTENANCE_CALLS;

/**
 * Runs one maintenance call and answers its deletion result. Destructive calls carry the
 * confirmation phrase, which the server requires. Every cached list may have changed afterwards.
 */
export function useMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.maintenance,
    mutationFn: (kind: MaintenanceKind) => {
      const call = MAINTENANCE_CALLS[kind];
      return apiRequest<DeletionResult>(call.path, {
        method: call.method,
        // Every destructive call needs the confirmation text; the screen has asked the person first.
        body: kind === 'reindex' ? undefined : { confirmation: MASS_DELETE_CONFIRMATION },
        timeoutMs: EXPORT_TIMEOUT_MS,
      });
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
