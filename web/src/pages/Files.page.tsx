import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { FileRecord } from '@sift/shared/contracts';
import { useDeleteFile, useDeleteFiles, useFiles } from '../api/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog/ConfirmDialog';
import { queryPlaceholder } from '../components/LoadError/LoadError';
import { PageHeader } from '../components/PageHeader/PageHeader';
import { Pager } from '../components/Pager/Pager';
import { FileTypeBadge, StatusBadge } from '../components/StatusBadge/StatusBadge';
import { formatCount, formatDateTime } from '../lib/format';
import { notify } from '../lib/notify';
import { clampPage, FILES_PAGE_SIZE, pageCount, pageSlice } from '../lib/paging';
import { keepExisting, pageSelection, withIds } from '../lib/selection';
import { useDeleteFlow } from '../lib/useDeleteFlow';

const plural = (n: number) => `${n} file(s)`;

/**
 * /files: the account's files, 20 a page, with single and bulk delete (select the page or every
 * page); polls while any file is processing.
 */
export function FilesPage() {
  const files = useFiles();
  const deleteFile = useDeleteFile();
  const deleteFiles = useDeleteFiles();
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
  const pageIds = pageFiles.map((file) => file.id);
  // Files deleted meanwhile (or by the bulk delete) leave the selection.
  const selected = keepExisting(
    selectedIds,
    all.map((file) => file.id),
  );
  const onPage = pageSelection(pageIds, selected);

  const removeSelected = () => {
    setConfirmBulk(false);
    const targets = all.filter((file) => selected.has(file.id));
    const toast = notify.loading(`Deleting ${plural(targets.length)}...`);
    deleteFiles.mutate(targets, {
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

  const list = pageFiles;

  return (
    <Stack gap="lg">
      <PageHeader
        title={`All Files (${list.length} total)`}
        description="General files with Authors and Email Addresses columns are duplicated into author files during processing, so the total may exceed the number of files you uploaded."
      />

      {all.length > 0 && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" wrap="wrap">
            <Text size="sm" aria-live="polite">
              {selected.size} selected
            </Text>
            {selected.size < all.length ? (
              <Button variant="subtle" size="xs" onClick={() => setSelected(new Set(all.map((f) => f.id)))}>
                Select all {all.length} files
              </Button>
            ) : (
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
            {deleteFiles.isPending ? 'Deleting...' : 'Delete Selected'}
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
        <Table.ScrollContainer minWidth={900} type="native">
          <Table striped highlightOnHover withTableBorder verticalSpacing="sm">
            <Table.Caption>Your uploaded files and the author files derived from them</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={40}>
                  <Checkbox
                    aria-label="Select all files on this page"
                    checked={onPage === 'all'}
                    indeterminate={onPage === 'some'}
                    onChange={(event) => setSelected(withIds(selected, pageIds, event.currentTarget.checked))}
                  />
                </Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">File</Table.Th>
                <Table.Th scope="col" ta="right">
                  Rows
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Columns
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Sheets
                </Table.Th>
                <Table.Th scope="col">Uploaded</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((file) => {
                const busy = deleting.has(file.id);
                const failed = file.status !== 'PROCESSING' && file.status !== 'PROCESSED';
                return (
                  <Table.Tr
                    key={file.id}
                    bg={selected.has(file.id) ? 'var(--mantine-primary-color-light)' : undefined}
                  >
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${file.originalFilename}`}
                        checked={selected.has(file.id)}
                        onChange={(event) =>
                          setSelected(withIds(selected, [file.id], event.currentTarget.checked))
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <FileTypeBadge fileType={file.fileType} />
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={file.status} />
                    </Table.Td>
                    <Table.Td>
                      <Text fw={500} style={{ wordBreak: 'break-word' }}>
                        {file.originalFilename}
                      </Text>
                      {failed && file.errorMessage && (
                        <Text size="sm" c="red">
                          {file.errorMessage}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(file.totalRows ?? file.rowCount)}</Table.Td>
                    <Table.Td ta="right">{formatCount(file.totalColumns)}</Table.Td>
                    <Table.Td ta="right">{formatCount(file.sheetNames?.length ?? 0)}</Table.Td>
                    <Table.Td>{formatDateTime(file.uploadDate)}</Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <Tooltip label="Delete">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${file.originalFilename}`}
                            loading={busy}
                            disabled={busy || deleteFiles.isPending}
                            onClick={() => ask(file)}
                          >
                            <IconTrash size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
    </Stack>
  );
}
