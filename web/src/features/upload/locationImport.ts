/** Server state of the import from the configured FTP/SFTP location (`/api/file/process-ftp`). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportFromLocationResponse, ImportLocationListing } from '@sift/shared/contracts';
import { apiRequest, isApiError, UPLOAD_TIMEOUT_MS } from '../../api/client';
import { mutationKeys, queryKeys } from '../../api/queryKeys';

/** Whether a listing failure means no location is configured here (501): nothing to offer. */
export function isNotConfigured(error: unknown): boolean {
  return isApiError(error) && error.status === 501;
}

/** `GET /api/file/process-ftp`: the location and its Excel and CSV files (not retried: 501 is an answer). */
export function useImportLocation() {
  return useQuery({
    queryKey: queryKeys.uploads.location(),
    queryFn: ({ signal }) => apiRequest<ImportLocationListing>('/file/process-ftp', { signal }),
    retry: false,
    staleTime: 30_000,
  });
}

/**
 * `POST /api/file/process-ftp`: imports the named files (none: all) into a new upload session; the
 * active sessions are read again so it shows at once.
 */
export function useImportFromLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.importFromLocation,
    mutationFn: (files: readonly string[] | null) =>
      apiRequest<ImportFromLocationResponse>('/file/process-ftp', {
        method: 'POST',
        body: files ? { files } : {},
        timeoutMs: UPLOAD_TIMEOUT_MS,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.uploads.active() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.files.all });
    },
  });
}
