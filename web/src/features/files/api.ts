/** Server state of the account's files: the list (polled while any is PROCESSING) and deletes. */
import { type Query, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FileRecord, type ImportReport, type ReadChoices } from '@sift/shared/contracts';
import { apiRequest, isApiError } from '../../api/client';
import { mutationKeys, queryKeys } from '../../api/queryKeys';

/** Files list polling while any file is PROCESSING. */
export const FILES_POLL_MS = 3_000;

const anyProcessing = (files: FileRecord[] | undefined) =>
  !!files?.some((file) => file.status === 'PROCESSING');

/** `GET /api/file/files`: the account's files; polls every 3 s while any of them is PROCESSING. */
export function useFiles() {
  return useQuery({
    queryKey: queryKeys.files.list(),
    queryFn: ({ signal }) => apiRequest<FileRecord[]>('/file/files', { signal }),
    refetchInterval: (query: Query<FileRecord[]>) =>
      anyProcessing(query.state.data) ? FILES_POLL_MS : false,
  });
}

/** `GET /api/file/files/{id}/report`: a file's import report (null: none asked for). Not retried: a 404 says there is none yet. */
export function useImportReport(fileId: string | null) {
  return useQuery({
    queryKey: queryKeys.files.report(fileId ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<ImportReport>(`/file/files/${encodeURIComponent(fileId!)}/report`, { signal }),
    enabled: fileId !== null,
    retry: false,
  });
}

/**
 * `POST /api/file/files/{id}/reingest`: reads a stored upload again with the encoding or header
 * rows chosen from its import report. The file is PROCESSING again, so the list and searches change.
 */
export function useReingest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.reingest,
    mutationFn: ({ fileId, read }: { fileId: string; read: ReadChoices }) =>
      apiRequest<FileRecord>(`/file/files/${encodeURIComponent(fileId)}/reingest`, {
        method: 'POST',
        body: read,
      }),
    onSuccess: async (_data, { fileId }) => {
      queryClient.removeQueries({ queryKey: queryKeys.files.report(fileId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}

/** `DELETE /api/file/files/{id}` (its AUTHOR file goes with a GENERAL file). */
function deleteFileCall(file: Pick<FileRecord, 'id'>): Promise<unknown> {
  return apiRequest<unknown>(`/file/files/${encodeURIComponent(file.id)}`, { method: 'DELETE' });
}

/** Deletes one file. Deleting changes the list and every search. */
export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: (file: Pick<FileRecord, 'id' | 'originalFilename'>) => deleteFileCall(file),
    onSuccess: async (_data, file) => {
      queryClient.removeQueries({ queryKey: queryKeys.files.detail(file.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}

/** What a bulk delete did: the files deleted and those that failed (with why). */
export interface BulkDeleteResult {
  deleted: Pick<FileRecord, 'id' | 'originalFilename'>[];
  failed: { file: Pick<FileRecord, 'id' | 'originalFilename'>; error: unknown }[];
}

/**
 * Deletes several files with `DELETE /api/file/files/{id}` each (the API has no bulk call), two at a
 * time; a failure does not stop the others. Resolves with what was deleted and what failed.
 */
export function useDeleteFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: async (files: Pick<FileRecord, 'id' | 'originalFilename'>[]): Promise<BulkDeleteResult> => {
      const result: BulkDeleteResult = { deleted: [], failed: [] };
      const queue = [...files];
      const worker = async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          try {
            await deleteFileCall(file);
            result.deleted.push(file);
          } catch (error) {
            // Already gone (an AUTHOR file goes with the file it was derived from): deleted all the same.
            if (isApiError(error) && error.status === 404) result.deleted.push(file);
            else result.failed.push({ file, error });
          }
        }
      };
      await Promise.all([worker(), worker()]);
      return result;
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}
