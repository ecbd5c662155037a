import { useState } from 'react';
import { Link } from 'react-router-dom';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { FileRecord } from '@sift/api/contracts';
import { useDeleteFile, useFiles } from '../api/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog/ConfirmDialog';
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader';
import { FileTypeBadge, StatusBadge } from '../components/StatusBadge/StatusBadge';
import { formatCount, formatDateTime } from '../lib/format';
import { notify } from '../lib/notify';

type Target = Pick<FileRecord, 'id' | 'originalFilename'>;

/** /files: the account's files, with single delete; polls while any file is processing. */
export function FilesPage() {
  const files = useFiles();
  const deleteFile = useDeleteFile();
  const [confirming, setConfirming] = useState<Target | null>(null);
  const [deletingIds, setDeletingIds] = useState<ReadonlySet<string>>(new Set());

  const remove = (file: Target) => {
    setConfirming(null);
    setDeletingIds((current) => new Set(current).add(file.id));
    deleteFile.mutate(file, {
      onSuccess: () => notify.success(`Successfully deleted "${file.originalFilename}"`),
      onError: (error) => {
        console.error('Delete failed', error);
        notify.error(`Failed to delete "${file.originalFilename}". Please try again.`);
      },
      onSettled: () =>
        setDeletingIds((current) => {
          const next = new Set(current);
          next.delete(file.id);
          return next;
        }),
    });
  };

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return (
      <Alert color="red" title="Files" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Failed to load your files. Please try again.</Text>
          <Button size="xs" variant="white" color="red" onClick={() => void files.refetch()}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  }

  const list = files.data;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          All Files ({list.length} total)
        </Title>
        <Text c="dimmed" size="sm">
          General files with Authors and Email Addresses columns are duplicated into author files during
          processing, so the total may exceed the number of files you uploaded.
        </Text>
      </div>

      {list.length === 0 ? (
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
                const deleting = deletingIds.has(file.id);
                const failed = file.status !== 'PROCESSING' && file.status !== 'PROCESSED';
                return (
                  <Table.Tr key={file.id}>
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
                            loading={deleting}
                            disabled={deleting}
                            onClick={() => setConfirming(file)}
                          >
                            <TrashIcon />
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

      <ConfirmDialog
        opened={confirming !== null}
        title="Delete file"
        message={
          confirming
            ? `Are you sure you want to delete "${confirming.originalFilename}"? This action cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        onConfirm={() => confirming && remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </Stack>
  );
}

function TrashIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </svg>
  );
}
