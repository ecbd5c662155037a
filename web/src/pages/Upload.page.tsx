import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { errorMessage } from '../api/client';
import { useFileStatuses, useUploadFiles } from '../api/hooks';
import { UploadDropzone } from '../components/UploadDropzone/UploadDropzone';
import { FileTypeBadge, StatusBadge } from '../components/StatusBadge/StatusBadge';
import { formatBytes, validateDroppedFiles, validateSelectedFiles } from '../lib/fileValidation';
import { formatCount } from '../lib/format';
import { notify } from '../lib/notify';
import { useUploadStore } from '../stores/uploadStore';

/** /upload: upload files (on selection) and watch them being processed. */
export function UploadPage() {
  const upload = useUploadFiles();
  const uploading = useUploadStore((state) => state.uploading);
  const fileIds = useUploadStore((state) => state.fileIds);
  const clearSession = useUploadStore((state) => state.clear);
  const [problems, setProblems] = useState<string[]>([]);
  const [pendingNames, setPendingNames] = useState<string[]>([]);
  const statuses = useFileStatuses(fileIds);

  const start = (files: File[], source: 'drop' | 'select') => {
    const store = useUploadStore.getState();
    if (store.uploading) {
      notify.error('Upload already in progress. Please wait for the current upload to complete.');
      return;
    }
    const result = source === 'drop' ? validateDroppedFiles(files) : validateSelectedFiles(files);
    setProblems(result.errors);
    if (result.accepted.length === 0) return;
    if (!store.beginUpload()) {
      notify.error('Upload already in progress. Please wait for the current upload to complete.');
      return;
    }
    for (const file of result.large) {
      notify.info(`${file.name} is ${formatBytes(file.size)}; uploading and processing may take a while.`, {
        title: 'Large file',
      });
    }
    setPendingNames(result.accepted.map((file) => file.name));
    // mutateAsync settles even if this screen is left meanwhile, so the upload slot is always released.
    upload
      .mutateAsync(result.accepted)
      .then((response) => useUploadStore.getState().finishUpload(response.files.map((file) => file.id)))
      .catch((error: unknown) => {
        useUploadStore.getState().finishUpload(null);
        console.error('Upload failed', error);
        notify.error(`Upload failed: ${errorMessage(error, 'Please try again.')}`);
      })
      .finally(() => setPendingNames([]));
  };

  const records = statuses.map((query) => query.data);
  const done = records.filter((file) => file && file.status !== 'PROCESSING').length;
  const total = fileIds.length;
  const percent = total === 0 ? 0 : (done / total) * 100;
  const allDone = total > 0 && done === total;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Upload Files
        </Title>
        <Text c="dimmed">
          Upload Excel (.xlsx, .xls) or CSV files. Uploading starts automatically as soon as you select or
          drop files; each file is then processed in the background.
        </Text>
      </div>

      <UploadDropzone onDrop={(files) => start(files, 'drop')} onSelect={(files) => start(files, 'select')} />

      {problems.length > 0 && (
        <Alert
          color="red"
          title="Some files were not accepted"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setProblems([])}
          role="alert"
        >
          <List size="sm">
            {problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      {uploading && (
        <Paper withBorder p="md" radius="md" role="status" aria-live="polite">
          <Group gap="sm">
            <Loader size="sm" aria-hidden />
            <Text>
              Uploading {pendingNames.length} {pendingNames.length === 1 ? 'file' : 'files'}:{' '}
              {pendingNames.join(', ')}
            </Text>
          </Group>
        </Paper>
      )}

      {total > 0 && (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={2} size="h4">
                This upload
              </Title>
              {allDone && (
                <Button variant="subtle" size="xs" onClick={clearSession}>
                  Clear list
                </Button>
              )}
            </Group>
            <Group justify="space-between" aria-live="polite">
              <Text size="sm">
                {done} of {total} files processed
              </Text>
              <Text size="sm" fw={600}>
                {percent.toFixed(0)}%
              </Text>
            </Group>
            <Progress value={percent} aria-label="Processing progress" animated={!allDone} />
            <Table.ScrollContainer minWidth={600} type="native">
              <Table verticalSpacing="xs">
                <Table.Caption>Files of this upload and their processing status</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">File</Table.Th>
                    <Table.Th scope="col">Type</Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col" ta="right">
                      Rows
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {statuses.map((query, index) => {
                    const file = query.data;
                    const id = fileIds[index] ?? String(index);
                    const failed = !!file && file.status !== 'PROCESSING' && file.status !== 'PROCESSED';
                    return (
                      <Table.Tr key={id} data-file-id={id}>
                        <Table.Td>
                          <Text fw={500} style={{ wordBreak: 'break-word' }}>
                            {file?.originalFilename ?? 'Loading...'}
                          </Text>
                          {failed && file.errorMessage && (
                            <Text size="sm" c="red">
                              {file.errorMessage}
                            </Text>
                          )}
                          {!file && query.isError && (
                            <Text size="sm" c="red">
                              {errorMessage(query.error, 'Could not read the status of this file.')}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{file && <FileTypeBadge fileType={file.fileType} />}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {(!file || file.status === 'PROCESSING') && <Loader size="xs" aria-hidden />}
                            {file && <StatusBadge status={file.status} />}
                          </Group>
                        </Table.Td>
                        <Table.Td ta="right">{file ? formatCount(file.totalRows) : ''}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </Paper>
      )}

      <Text size="sm" c="dimmed">
        Bulk or large uploads can take a while to process; you can leave this screen and will be told when
        processing finishes.
      </Text>
    </Stack>
  );
}
