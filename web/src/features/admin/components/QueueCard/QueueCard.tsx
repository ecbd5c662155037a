import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminQueueJob } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { formatCount, formatDateTime } from '../../../../lib/format';
import { useIngestQueue } from '../../api';

const STATE_COLOR: Record<AdminQueueJob['state'], string> = {
  active: 'blue',
  waiting: 'gray',
  delayed: 'yellow',
  failed: 'red',
};

/** `95 s`, `4 min`, `2 h 5 min`: how long the oldest waiting job has waited. */
function waitText(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The ingest queue now (`GET /api/admin/queue`, asked again every few seconds): jobs by state, how
 * long the oldest waiting one has waited, and the jobs: the active ones with their stage and the
 * worker running them, the waiting ones in the order they will be taken, retries waiting out their
 * backoff, and the latest failures with their reason.
 */
export function QueueCard() {
  const queue = useIngestQueue();
  const view = queue.data;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="queue-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="queue-title">
          Ingest queue
        </Title>
        {queue.isError ? (
          <Text size="sm" c="red" role="alert">
            Could not load the ingest queue: {errorMessage(queue.error, 'Unknown error')}
          </Text>
        ) : !view ? (
          <Text size="sm" c="dimmed">
            Loading the ingest queue...
          </Text>
        ) : (
          <>
            <Group gap="xs" aria-label="Jobs by state">
              {(['active', 'waiting', 'delayed', 'failed'] as const).map((state) => (
                <Badge key={state} color={STATE_COLOR[state]} variant="light">
                  {formatCount(view.counts[state])} {state}
                </Badge>
              ))}
              {view.oldestWaitingSeconds !== null && (
                <Text size="sm" c="dimmed">
                  The oldest waiting job has waited {waitText(view.oldestWaitingSeconds)}.
                </Text>
              )}
            </Group>
            {view.jobs.length === 0 ? (
              <Text size="sm" c="dimmed">
                No file is waiting or being read.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={760}>
                <Table striped fz="sm" aria-label="Ingest jobs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>File</Table.Th>
                      <Table.Th>Account</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Stage</Table.Th>
                      <Table.Th ta="right">Tries</Table.Th>
                      <Table.Th>Worker</Table.Th>
                      <Table.Th>Queued</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {view.jobs.map((job) => (
                      <Table.Tr key={`${job.state}/${job.id}`}>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{job.fileName}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          {job.ownerEmail || job.ownerId}
                        </Table.Td>
                        <Table.Td>
                          <Badge color={STATE_COLOR[job.state]} variant="light">
                            {job.state}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          {job.state === 'failed'
                            ? (job.failedReason ?? '')
                            : job.stage
                              ? `${job.stage}${job.stageProgress !== null ? ` (${job.stageProgress}%)` : ''}`
                              : ''}
                        </Table.Td>
                        <Table.Td ta="right">
                          {job.attemptsMade} of {job.attempts}
                        </Table.Td>
                        <Table.Td>{job.processedBy ?? ''}</Table.Td>
                        <Table.Td>{formatDateTime(job.queuedAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
