import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { useFileStatuses } from '../../api/hooks';
import { queryKeys } from '../../api/queryKeys';
import { notify } from '../../lib/notify';
import { useUploadStore } from '../../stores/uploadStore';

/** Spec section 4: the upload-complete toast shows for 5 seconds. */
export const UPLOAD_COMPLETE_TOAST_MS = 5_000;

/**
 * Watches the files of the latest upload from anywhere in the main area (so leaving the Upload
 * screen does not lose the outcome) and reports once when none is PROCESSING any more.
 */
export function UploadWatcher() {
  const queryClient = useQueryClient();
  const fileIds = useUploadStore((state) => state.fileIds);
  const notified = useUploadStore((state) => state.completionNotified);
  const markNotified = useUploadStore((state) => state.markCompletionNotified);
  const statuses = useFileStatuses(fileIds);

  const settled =
    fileIds.length > 0 &&
    statuses.every((query) => (query.data ? query.data.status !== 'PROCESSING' : query.isError));

  useEffect(() => {
    if (!settled || notified) return;
    markNotified();
    const failures = statuses.filter((query) => !query.data || query.data.status !== 'PROCESSED');
    if (failures.length === 0) {
      notify.success('Upload complete! All files processed successfully.', {
        autoClose: UPLOAD_COMPLETE_TOAST_MS,
      });
    } else {
      for (const query of failures) {
        const name = query.data?.originalFilename ?? 'A file';
        const reason = query.data?.errorMessage ?? errorMessage(query.error, 'Processing failed.');
        notify.error(reason, { title: `${name} could not be processed`, autoClose: 8_000 });
      }
    }
    // Processing may have derived author files: refresh the list and every search.
    void queryClient.invalidateQueries({ queryKey: queryKeys.files.list() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.search.all });
  }, [settled, notified, markNotified, statuses, queryClient]);

  return null;
}
