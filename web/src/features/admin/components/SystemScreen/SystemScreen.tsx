import { useState } from 'react';
import { Alert, List, SimpleGrid, Stack, Text } from '@mantine/core';
import type { DeletionResult } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { useMaintenance, type MaintenanceKind } from '../../api';
import { MaintenanceCard } from '../MaintenanceCard/MaintenanceCard';
import { MassDeleteCard } from '../MassDeleteCard/MassDeleteCard';
import { SnapshotsCard } from '../SnapshotsCard/SnapshotsCard';
import { QueueCard } from '../QueueCard/QueueCard';
import { ReindexProgress } from '../ReindexProgress/ReindexProgress';
import { MAINTENANCE_ACTIONS, SEARCH_ENGINE_NAME, type MaintenanceAction } from '../../maintenance';
import { notify } from '../../../../ui/notify';

/** Spec section 8: the server's error field, else the message, else 'Unknown error'. */
const reason = (error: unknown) =>
  errorMessage(error, error instanceof Error ? error.message : 'Unknown error');

/** /admin/system: data maintenance cards and the mass delete (spec section 2, Admin System). */
export function SystemScreen() {
  const maintenance = useMaintenance();
  const [results, setResults] = useState<Partial<Record<MaintenanceKind, DeletionResult>>>({});
  const [confirming, setConfirming] = useState<MaintenanceAction | null>(null);
  /** The call running, if any (one at a time: the other buttons wait). */
  const running = maintenance.isPending ? maintenance.variables : null;

  const run = (
    kind: MaintenanceKind,
    label: string,
    done: (r: DeletionResult) => void,
    failed: (e: unknown) => void,
  ) => {
    maintenance.mutate(kind, {
      onSuccess: (result) => {
        setResults((current) => ({ ...current, [kind]: result }));
        done(result);
      },
      onError: (error) => {
        console.error(`${label} failed`, error);
        failed(error);
      },
    });
  };

  const runAction = (action: MaintenanceAction) => {
    setConfirming(null);
    run(
      action.kind,
      action.label,
      (result) =>
        notify.success(
          action.destructive
            ? `${action.label} deleted successfully`
            : action.kind === 'reindex'
              ? // Queued, not done; each file stays searchable throughout (its records switch over).
                `${action.label} queued: ${result.clickHouseReindexed} file(s) will be read again; searches stay complete meanwhile`
              : `${action.label} completed successfully`,
        ),
      (error) =>
        notify.error(
          `${action.destructive ? 'Failed to delete' : 'Failed to run'} ${action.label}: ${reason(error)}`,
        ),
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title="System Admin"
        description="Data maintenance for the whole installation. Every action here affects all accounts."
      />

      <Alert color="red" title="These actions cannot be undone" role="note">
        <Text size="sm">Depending on the action, they permanently delete:</Text>
        <List size="sm" mt={4}>
          <List.Item>uploaded files</List.Item>
          <List.Item>file data (every searchable row)</List.Item>
          <List.Item>export history</List.Item>
          <List.Item>{SEARCH_ENGINE_NAME} search-index collections</List.Item>
          <List.Item>upload sessions and tracking data</List.Item>
        </List>
      </Alert>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {MAINTENANCE_ACTIONS.map((action) => (
          <MaintenanceCard
            key={action.kind}
            action={action}
            running={running === action.kind}
            blocked={running !== null && running !== action.kind}
            result={results[action.kind]}
            onRequest={setConfirming}
          >
            {action.kind === 'reindex' && results.reindex && (
              <ReindexProgress queued={results.reindex.clickHouseReindexed} />
            )}
          </MaintenanceCard>
        ))}
      </SimpleGrid>

      <QueueCard />

      <SnapshotsCard />

      <MassDeleteCard
        running={running === 'massDelete'}
        blocked={running !== null}
        result={results.massDelete}
        onConfirmed={() =>
          run(
            'massDelete',
            'Mass deletion',
            () => notify.success('Mass deletion completed successfully'),
            (error) => notify.error(`Mass deletion failed: ${reason(error)}`),
          )
        }
        onMismatch={() => notify.error('Mass deletion cancelled - confirmation text did not match')}
      />

      <ConfirmDialog
        opened={confirming !== null}
        title={confirming ? confirming.action : ''}
        message={
          confirming
            ? confirming.destructive
              ? `${confirming.description} This affects every account and cannot be undone. Continue?`
              : `${confirming.description} Continue?`
            : ''
        }
        confirmLabel={confirming?.action ?? ''}
        confirmColor={confirming?.destructive === false ? 'blue' : 'red'}
        onConfirm={() => confirming && runAction(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </Stack>
  );
}
