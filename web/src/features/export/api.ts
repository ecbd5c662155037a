/** Server state of exports: running one, and the export history. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ExportHistoryEntry, type ExportRequest } from '@sift/shared/contracts';
import { apiBlobRequest, apiRequest, EXPORT_TIMEOUT_MS } from '../../api/client';
import { mutationKeys, queryKeys } from '../../api/queryKeys';
import { saveBlob } from '../../ui/download';
import { exportDownloadName, type ExportFormat } from './exportFilename';

export interface ExportVariables {
  request: Omit<ExportRequest, 'format' | 'customFilename'>;
  format: ExportFormat;
  customFilename?: string;
}

/** `POST /api/file/export`: streams the file back; saved under the server's filename. */
export function useExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.export,
    mutationFn: async ({ request, format, customFilename }: ExportVariables) => {
      const body: ExportRequest = { ...request, format, ...(customFilename ? { customFilename } : {}) };
      const { blob, filename } = await apiBlobRequest('/file/export', {
        method: 'POST',
        body,
        timeoutMs: EXPORT_TIMEOUT_MS,
      });
      const name = exportDownloadName(filename, customFilename, format);
      saveBlob(blob, name);
      return name;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.exports.all }),
  });
}

/** `GET /api/file/exports`: the account's exports, newest first. */
export function useExportHistory() {
  return useQuery({
    queryKey: queryKeys.exports.list(),
    queryFn: ({ signal }) => apiRequest<ExportHistoryEntry[]>('/file/exports', { signal }),
  });
}

/** `GET /api/file/exports/{id}/download`: saves the kept file under its recorded name. */
export async function downloadExport(
  entry: Pick<ExportHistoryEntry, 'id' | 'exportFilename'>,
): Promise<void> {
  const { blob, filename } = await apiBlobRequest(`/file/exports/${encodeURIComponent(entry.id)}/download`, {
    timeoutMs: EXPORT_TIMEOUT_MS,
  });
  saveBlob(blob, filename ?? entry.exportFilename);
}

/** `DELETE /api/file/exports/{id}`: removes the entry and its file. */
export function useDeleteExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteExport,
    mutationFn: (id: string) =>
      apiRequest<unknown>(`/file/exports/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.exports.all }),
  });
}
