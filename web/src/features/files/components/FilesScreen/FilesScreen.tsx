import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { FileDeletion, FileRecord } from '@sift/shared/contracts';
import { useDeleteFile, useDeleteFiles, useFiles } from '../../api';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { queryPlaceholder } from '../../../../components/LoadError/LoadError';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { Pager } from '../../../../components/Pager/Pager';
import { notify } from '../../../../ui/notify';
import { clampPage, FILES_PAGE_SIZE, pageCount, pageSlice } from '../../../../lib/paging';
import { keepExisting } from '../../../../lib/selection';
import { FilesTable } from '../FilesTable/FilesTable';
import { useDeleteFlow } from '../../../../components/DeleteFlow/useDeleteFlow';
import { ImportReportDialog } from '../ImportReportDialog/ImportReportDialog';

const plural = (n: number) => `${n} file(s)`;

/**
 * /files: the account's files, 20 a page, with single and bulk delete (select the page or every
 * page; the server deletes a selection to the end, and its progress shows on the button); polls
 * while any file is processing.
 */
export function FilesScreen() {
  const files = useFiles();
  const deleteFile = useDeleteFile();
  const [reportFile, setReportFile] = useState<FileRecord | null>(null);
  const [progress, setProgress] = useState<FileDeletion | null>(null);
  const deleteFiles = useDeleteFiles(setProgress);
  const { ask, deleting, dialog } = useDeleteFlow<FileRecord>({
    title: 'Delete file',
    name: (file) => file.originalFilename,
    run: (file, callbacks) => deleteFile.mutate(file, callbacks),
  });
  const [page, setPage] = useState(0);
  const [selectedIds, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [confirmBulk, setConfirmBulk] = useState(false);

  const all = useMemo(() => files.data ?? [], [files.data]);
  const totalPages = pageCount(all.length, FILES_PAGE_SIZE);
  const current = clampPage(page, totalPages);
  const pageFiles = pageSlice(all, current, FILES_PAGE_SIZE);
  // Files deleted meanwhile (or by the bulk delete) leave the selection.
  const selected = keepExisting(
    selectedIds,
    all.map((file) => file.id),
  );

  // Selected files not on this page: unticking the page leaves them selected, so say so.
  const offPage = selected.size - pageFiles.filter((file) => selected.has(file.id)).length;

  const removeSelected = () => {
    setConfirmBulk(false);
    const targets = all.filter((file) => selected.has(file.id));
    const toast = notify.loading(`Deleting ${plural(targets.length)}...`);
    setProgress(null);
    deleteFiles.mutate(targets, {
      onSettled: () => setProgress(null),
      onSuccess: ({ deleted, failed }) => {
        notify.hide(toast);
        if (deleted.length) notify.success(`Successfully deleted ${plural(deleted.length)}`);
        if (failed.length) {
          console.error('Bulk delete failed for some files', failed);
          notify.error(`Failed to delete ${plural(failed.length)}`);
        }
        setSelected(new Set(failed.map(({ file }) => file.id)));
      },
      onError: (error) => {
        notify.hide(toast);
        console.error('Bulk delete failed', error);
        notify.error(`Failed to delete ${plural(targets.length)}`);
      },
    });
  };

  const placeholder = queryPlaceholder(files, {
    title: 'Files',
    message: 'Failed to load your files. Please try again.',
  });
  if (placeholder || !files.data) return placeholder;

  return (
    <Stack gap="lg">
      <PageHeader
        title={`All Files (${all.length} total)`}
        description="General files with Authors and Email Addresses columns are duplicated into author files during processing, so the total may exceed the number of files you uploaded."
      />

      {all.length > 0 && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <Text size="sm" aria-live="polite">
              {selected.size} selected
              {offPage > 0 && ` (${offPage} on other pages)`}
            </Text>
            {selected.size < all.length && (
              <Button variant="subtle" size="xs" onClick={() => setSelected(new Set(all.map((f) => f.id)))}>
                Select all {all.length} files
              </Button>
            )}
            {selected.size > 0 && (
              <Button variant="subtle" size="xs" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
            )}
          </Group>
          <Button
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            disabled={selected.size === 0 || deleteFiles.isPending}
            onClick={() => setConfirmBulk(true)}
          >
            {deleteFiles.isPending
              ? progress
                ? `Deleting... ${progress.deleted + progress.missing + progress.failed.length} of ${progress.total}`
                : 'Deleting...'
              : 'Delete Selected'}
          </Button>
        </Group>
      )}

      {all.length === 0 ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="sm">
            <Text c="dimmed">No files uploaded yet</Text>
            <Button component={Link} to="/upload">
              Upload Files
            </Button>
          </Stack>
        </Paper>
      ) : (
        <FilesTable
          files={pageFiles}
          selection={{
            selected,
            onChange: setSelected,
            rowLabel: (file) => `Select ${file.originalFilename}`,
            allLabel: 'Select all files on this page',
          }}
          deleting={deleting}
          deleteDisabled={deleteFiles.isPending}
          onDelete={ask}
          onReport={setReportFile}
        />
      )}

      {all.length > 0 && (
        <Group justify="flex-end">
          <Pager page={current} totalPages={totalPages} onPage={setPage} label="Files pages" />
        </Group>
      )}

      {dialog}
      <ConfirmDialog
        opened={confirmBulk}
        title="Delete selected files"
        message={`Are you sure you want to delete ${plural(selected.size)}? This action cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={removeSelected}
        onCancel={() => setConfirmBulk(false)}
      />
      <ImportReportDialog file={reportFile} onClose={() => setReportFile(null)} />
    </Stack>
  );
}
