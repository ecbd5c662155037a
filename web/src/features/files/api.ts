/** Server state of the account's files: the list (polled while any is PROCESSING) and deletes. */
import { type Query, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type FileDeletion,
  type FileDeletionRequest,
  type FileRecord,
  type ImportReport,
  type ReadChoices,
} from '@sift/shared/contracts';
import { apiRequest } from '../../api/client';
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

/** What a bulk delete did: the files deleted (or already gone) and those that failed (with why). */
export interface BulkDeleteResult {
  deleted: Pick<FileRecord, 'id' | 'originalFilename'>[];
  failed: { file: Pick<FileRecord, 'id' | 'originalFilename'>; error: unknown }[];
}

/** How often a bulk delete's progress is read, in ms. */
export const DELETION_POLL_MS = 1_000;

/**
 * Deletes several files with one `POST /api/file/deletions`: the server deletes them to the end
 * even if this tab closes. Follows it (`GET /api/file/deletions/{id}`), handing each reading to
 * `onProgress`, and resolves with what was deleted (files already gone count as deleted) and what
 * failed.
 */
export function useDeleteFiles(onProgress?: (deletion: FileDeletion) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.deleteFile,
    mutationFn: async (files: Pick<FileRecord, 'id' | 'originalFilename'>[]): Promise<BulkDeleteResult> => {
      let deletion = await apiRequest<FileDeletion>('/file/deletions', {
        method: 'POST',
        body: { ids: files.map((f) => f.id) } satisfies FileDeletionRequest,
      });
      while (!deletion.done) {
        onProgress?.(deletion);
        await new Promise((resolve) => setTimeout(resolve, DELETION_POLL_MS));
        deletion = await apiRequest<FileDeletion>(`/file/deletions/${encodeURIComponent(deletion.id)}`);
      }
      const failed = new Map(deletion.failed.map((f) => [f.fileId, f.error]));
      return {
        deleted: files.filter((f) => !failed.has(f.id)),
        failed: files.filter((f) => failed.has(f.id)).map((file) => ({ file, error: failed.get(file.id) })),
      };
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.files.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.search.all }),
      ]);
    },
  });
}
