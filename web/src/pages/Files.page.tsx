import { Link } from 'react-router-dom';
import { ActionIcon, Button, Group, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { FileRecord } from '@sift/api/contracts';
import { useDeleteFile, useFiles } from '../api/hooks';
import { queryPlaceholder } from '../components/LoadError/LoadError';
import { PageHeader } from '../components/PageHeader/PageHeader';
import { FileTypeBadge, StatusBadge } from '../components/StatusBadge/StatusBadge';
import { formatCount, formatDateTime } from '../lib/format';
import { useDeleteFlow } from '../lib/useDeleteFlow';

/** /files: the account's files, with single delete; polls while any file is processing. */
export function FilesPage() {
  const files = useFiles();
  const deleteFile = useDeleteFile();
  const { ask, deleting, dialog } = useDeleteFlow<FileRecord>({
    title: 'Delete file',
    name: (file) => file.originalFilename,
    run: (file, callbacks) => deleteFile.mutate(file, callbacks),
  });

  const placeholder = queryPlaceholder(files, {
    title: 'Files',
    message: 'Failed to load your files. Please try again.',
  });
  if (placeholder || !files.data) return placeholder;

  const list = files.data;

  return (
    <Stack gap="lg">
      <PageHeader
        title={`All Files (${list.length} total)`}
        description="General files with Authors and Email Addresses columns are duplicated into author files during processing, so the total may exceed the number of files you uploaded."
      />

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
                const busy = deleting.has(file.id);
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
                            loading={busy}
                            disabled={busy}
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

      {dialog}
    </Stack>
  );
}
