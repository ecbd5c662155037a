import { useState } from 'react';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { RestoreResult, Snapshot } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { TypeToConfirm } from '../../../../components/TypeToConfirm/TypeToConfirm';
import { formatBytes, formatDateTime } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';
import { downloadContacts, useSnapshotCalls, useSnapshots, type ContactExportKind } from '../../api';

/** The word a person types to confirm a restore. */
export const RESTORE_CONFIRMATION = 'RESTORE';

const count = new Intl.NumberFormat('en-US');

/**
 * Snapshots (`/api/admin/restore/...`): the list, newest first, with what each holds; Take snapshot;
 * Delete; Restore, asked once and then confirmed by typing RESTORE_CONFIRMATION (it replaces every
 * account's files, rows and export history with the snapshot's), its result once done.
 */
export function SnapshotsCard() {
  const snapshots = useSnapshots();
  const calls = useSnapshotCalls();
  const [restoring, setRestoring] = useState<Snapshot | null>(null);
  const [typing, setTyping] = useState<Snapshot | null>(null);
  const [deleting, setDeleting] = useState<Snapshot | null>(null);
  const [restored, setRestored] = useState<RestoreResult | null>(null);
  const busy = calls.isPending;
  const failed = (what: string) => (error: unknown) =>
    notify.error(
      `${what} failed: ${errorMessage(error, error instanceof Error ? error.message : 'Unknown error')}`,
    );

  const take = () =>
    calls.mutate(
      { kind: 'create' },
      { onSuccess: () => notify.success('Snapshot taken'), onError: failed('Snapshot') },
    );
  const remove = (snapshot: Snapshot) =>
    calls.mutate(
      { kind: 'delete', id: snapshot.id },
      { onSuccess: () => notify.success('Snapshot deleted'), onError: failed('Deleting the snapshot') },
    );
  const restore = (snapshot: Snapshot) =>
    calls.mutate(
      { kind: 'restore', id: snapshot.id },
      {
        onSuccess: (result) => {
          setRestored(result as RestoreResult);
          notify.success(`Restored the snapshot of ${formatDateTime(snapshot.createdAt)}`);
        },
        onError: failed('Restore'),
      },
    );

  const list = snapshots.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="snapshots-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="snapshots-title">
            Snapshots
          </Title>
          <Button onClick={take} loading={busy && calls.variables?.kind === 'create'} disabled={busy}>
            Take snapshot
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          A snapshot keeps every account, file, searchable row, stored original and the export history as they
          are now; restoring one brings the whole installation back to that moment.
        </Text>
        {snapshots.isError ? (
          <Text size="sm" c="red" role="alert">
            Could not load the snapshots: {errorMessage(snapshots.error, 'Unknown error')}
          </Text>
        ) : list.length === 0 ? (
          <Text size="sm" c="dimmed">
            {snapshots.isPending ? 'Loading snapshots...' : 'No snapshots yet.'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped fz="sm" aria-label="Snapshots">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Taken</Table.Th>
                  <Table.Th>By</Table.Th>
                  <Table.Th ta="right">Accounts</Table.Th>
                  <Table.Th ta="right">Files</Table.Th>
                  <Table.Th ta="right">Rows</Table.Th>
                  <Table.Th ta="right">Size</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((snapshot) => {
                  const taken = formatDateTime(snapshot.createdAt);
                  return (
                    <Table.Tr key={snapshot.id}>
                      <Table.Td>{taken}</Table.Td>
                      <Table.Td>{snapshot.createdBy}</Table.Td>
                      <Table.Td ta="right">{count.format(snapshot.accounts)}</Table.Td>
                      <Table.Td ta="right">{count.format(snapshot.files)}</Table.Td>
                      <Table.Td ta="right">{count.format(snapshot.rows)}</Table.Td>
                      <Table.Td ta="right">{formatBytes(snapshot.sizeBytes)}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            color="orange"
                            disabled={busy}
                            onClick={() => setRestoring(snapshot)}
                            aria-label={`Restore the snapshot of ${taken}`}
                          >
                            Restore
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="default"
                            disabled={busy}
                            onClick={() => setDeleting(snapshot)}
                            aria-label={`Delete the snapshot of ${taken}`}
                          >
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {busy && calls.variables?.kind === 'restore' && (
          <Text size="sm" role="status">
            Restoring the snapshot...
          </Text>
        )}
        {restored && (
          <Text size="sm" role="status" aria-label="Restore result">
            Restored {count.format(restored.accountsRestored)} accounts,{' '}
            {count.format(restored.filesRestored)} files, {count.format(restored.rowsRestored)} rows and{' '}
            {count.format(restored.exportsRestored)} exports in {(restored.durationMs / 1000).toFixed(1)} s.
          </Text>
        )}
        <ContactExports />
      </Stack>

      <ConfirmDialog
        opened={restoring !== null}
        title="Restore this snapshot?"
        message={
          restoring
            ? `Every account's files, rows and export history are replaced with those of ${formatDateTime(restoring.createdAt)}. What was added since is lost unless another snapshot holds it.`
            : ''
        }
        confirmLabel="Continue"
        confirmColor="orange"
        onConfirm={() => {
          setTyping(restoring);
          setRestoring(null);
        }}
        onCancel={() => setRestoring(null)}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete this snapshot?"
        message={deleting ? `The snapshot of ${formatDateTime(deleting.createdAt)} is deleted for good.` : ''}
        confirmLabel="Delete"
        onConfirm={() => {
          if (deleting) remove(deleting);
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
      <TypeToConfirm
        opened={typing !== null}
        title="Type to confirm the restore"
        phrase={RESTORE_CONFIRMATION}
        submitLabel="Restore"
        submitColor="orange"
        onClose={() => setTyping(null)}
        onSubmit={(matches) => {
          const snapshot = typing;
          setTyping(null);
          if (!snapshot) return;
          if (matches) restore(snapshot);
          else notify.error('Restore cancelled - confirmation text did not match');
        }}
      />
    </Card>
  );
}

/** The contact exports of every AUTHOR file, as CSV downloads. */
function ContactExports() {
  const [loading, setLoading] = useState<ContactExportKind | null>(null);
  const download = async (kind: ContactExportKind) => {
    setLoading(kind);
    try {
      await downloadContacts(kind);
    } catch (error) {
      notify.error(`Contact export failed: ${errorMessage(error, 'Unknown error')}`);
    } finally {
      setLoading(null);
    }
  };
  return (
    <Stack gap="xs" mt="sm" component="section" aria-labelledby="contacts-title">
      <Title order={3} size="h5" id="contacts-title">
        Contact exports
      </Title>
      <Text size="sm" c="dimmed">
        The distinct author contacts of every author file, for every account, as CSV.
      </Text>
      <Group>
        <Button variant="light" loading={loading === 'emails'} onClick={() => void download('emails')}>
          Download emails
        </Button>
        <Button variant="light" loading={loading === 'full'} onClick={() => void download('full')}>
          Download full contacts
        </Button>
      </Group>
    </Stack>
  );
}
