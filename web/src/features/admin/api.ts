/** Server state of the admin screens: accounts and data maintenance (spec sections 2 and 7). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiBlobRequest, apiRequest, EXPORT_TIMEOUT_MS } from '../../api/client';
import { saveBlob } from '../../ui/download';
import { type AdminAccountsParams, mutationKeys, queryKeys } from '../../api/queryKeys';
import {
  type AdminAccount,
  type AdminQueueView,
  type Confirmation,
  type ConfirmedAction,
  type DeletionResult,
  MASS_DELETE_CONFIRMATION,
  type Page,
  type RestoreResult,
  type Snapshot,
  type SystemStats,
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

/**
 * `POST /api/admin/confirmations`: a confirmation of one destructive call, which that call carries
 * (good once, for a few minutes, for the files as they are now). The screen has asked the person
 * first; maintenance calls send the phrase they typed.
 */
async function confirmationOf(action: ConfirmedAction, target?: string): Promise<string> {
  const confirmation = await apiRequest<Confirmation>('/admin/confirmations', {
    method: 'POST',
    body: { action, target, phrase: MASS_DELETE_CONFIRMATION },
  });
  return confirmation.token;
}

/** `DELETE /api/admin/accounts/{id}`: the account with its files, rows, exports and sessions. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteAccount,
    mutationFn: async (id: string) =>
      apiRequest<unknown>(`/admin/accounts/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        body: { confirmation: await confirmationOf('delete-account', id) },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}

// ---------------------------------------------------------------------------------------------
// Admin: data maintenance

/** The maintenance calls of the System Admin screen (spec section 7, Admin), each `/admin/{action}`. */
export const MAINTENANCE_CALLS = {
  files: { method: 'DELETE', action: 'delete-files' },
  fileData: { method: 'DELETE', action: 'delete-file-data' },
  exportHistory: { method: 'DELETE', action: 'delete-export-history' },
  searchIndex: { method: 'DELETE', action: 'clear-clickhouse' },
  uploadTracking: { method: 'DELETE', action: 'clear-upload-tracking' },
  reindex: { method: 'POST', action: 'reindex-clickhouse' },
  massDelete: { method: 'DELETE', action: 'mass-delete-all-files' },
} as const;
export type MaintenanceKind = keyof typeof MAINTENANCE_CALLS;

/**
 * Runs one maintenance call and answers its deletion result. Destructive calls carry a confirmation
 * of themselves (confirmationOf), which the server requires. Every cached list may have changed
 * afterwards.
 */
export function useMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.maintenance,
    mutationFn: async (kind: MaintenanceKind) => {
      const call = MAINTENANCE_CALLS[kind];
      return apiRequest<DeletionResult>(`/admin/${call.action}`, {
        method: call.method,
        body:
          call.action === 'reindex-clickhouse'
            ? undefined
            : { confirmation: await confirmationOf(call.action) },
        timeoutMs: EXPORT_TIMEOUT_MS,
      });
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

// ---------------------------------------------------------------------------------------------
// Admin: snapshots and contact exports

/** `GET /api/admin/restore/snapshots`: the snapshots, newest first. */
export function useSnapshots() {
  return useQuery({
    queryKey: queryKeys.admin.snapshots(),
    queryFn: ({ signal }) => apiRequest<Snapshot[]>('/admin/restore/snapshots', { signal }),
  });
}

/**
 * The snapshot calls: `POST /api/admin/restore/snapshots` takes one, `DELETE
 * /api/admin/restore/snapshots/{id}` removes one, `POST /api/admin/restore/execute` brings the
 * installation back to one (carrying a confirmation of itself, see confirmationOf). Every cached
 * list may have changed after a restore.
 */
export function useSnapshotCalls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.snapshot,
    mutationFn: async (
      call: { kind: 'create' } | { kind: 'delete'; id: string } | { kind: 'restore'; id: string },
    ): Promise<Snapshot | RestoreResult | null> => {
      if (call.kind === 'create')
        return apiRequest<Snapshot>('/admin/restore/snapshots', {
          method: 'POST',
          timeoutMs: EXPORT_TIMEOUT_MS,
        });
      if (call.kind === 'delete') {
        await apiRequest<unknown>(`/admin/restore/snapshots/${encodeURIComponent(call.id)}`, {
          method: 'DELETE',
        });
        return null;
      }
      return apiRequest<RestoreResult>('/admin/restore/execute', {
        method: 'POST',
        body: { snapshotId: call.id, confirmation: await confirmationOf('restore', call.id) },
        timeoutMs: EXPORT_TIMEOUT_MS,
      });
    },
    onSuccess: (_result, call) =>
      call.kind === 'restore'
        ? queryClient.invalidateQueries()
        : queryClient.invalidateQueries({ queryKey: queryKeys.admin.snapshots() }),
  });
}

/** The contact exports of every AUTHOR file (`GET /api/admin/export/contacts/{kind}`). */
export type ContactExportKind = 'emails' | 'full';

/** Downloads one contact export as CSV, saved under the server's filename. */
export async function downloadContacts(kind: ContactExportKind): Promise<void> {
  const { blob, filename } = await apiBlobRequest(`/admin/export/contacts/${kind}`, {
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveBlob(blob, filename ?? `contacts-${kind}.csv`);
}

/** How often the System Admin screen asks for the ingest queue while a reindex runs, ms. */
export const QUEUE_POLL_MS = 2_000;

/**
 * `GET /api/admin/system/stats` (accounts, files, rows, storage and the ingest queue), asked again
 * every QUEUE_POLL_MS until the ingest queue is empty.
 */
export function useSystemStats() {
  return useQuery({
    queryKey: queryKeys.admin.systemStats(),
    queryFn: ({ signal }) => apiRequest<SystemStats>('/admin/system/stats', { signal }),
    refetchInterval: (query) => {
      const queue = query.state.data?.queue;
      return queue && queue.waiting + queue.active + queue.delayed === 0 ? false : QUEUE_POLL_MS;
    },
  });
}

/** How often the queue view asks for the ingest queue again, ms. */
export const QUEUE_VIEW_POLL_MS = 5_000;

/** `GET /api/admin/queue`: the ingest queue now (counts, jobs, the oldest wait), every QUEUE_VIEW_POLL_MS. */
export function useIngestQueue() {
  return useQuery({
    queryKey: queryKeys.admin.queue(),
    queryFn: ({ signal }) => apiRequest<AdminQueueView>('/admin/queue', { signal }),
    refetchInterval: QUEUE_VIEW_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
