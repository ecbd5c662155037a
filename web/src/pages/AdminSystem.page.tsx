import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  List,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { MASS_DELETE_CONFIRMATION, type DeletionResult } from '@sift/shared/contracts';
import { useMaintenance, type MaintenanceKind } from '../api/adminHooks';
import { errorMessage } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog/ConfirmDialog';
import { PageHeader } from '../components/PageHeader/PageHeader';
import { formatDateTime } from '../lib/format';
import { notify } from '../lib/notify';

/** The product's search database, named in the UI as the spec asks. */
export const SEARCH_ENGINE_NAME = 'ClickHouse';

type Field = [label: string, value: (r: DeletionResult) => string];
const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');
const count = (n: number) => n.toLocaleString();

const FIELDS = {
  filesDeleted: ['Stored files deleted', (r) => count(r.filesDeleted)],
  fileRecords: ['File records deleted', (r) => count(r.fileRecordsDeleted)],
  fileData: ['File data records deleted', (r) => count(r.fileDataRecordsDeleted)],
  exports: ['Export history records deleted', (r) => count(r.exportHistoryRecordsDeleted)],
  total: ['Total records deleted', (r) => count(r.totalRecordsDeleted)],
  searchIndex: [`${SEARCH_ENGINE_NAME} cleared`, (r) => yesNo(r.clickHouseCollectionsCleared > 0)],
  tracking: ['Upload tracking cleared', (r) => yesNo(r.uploadTrackingDataCleared > 0)],
  reindexed: ['Files queued for reindexing', (r) => count(r.clickHouseReindexed)],
  duration: ['Duration', (r) => `${count(r.durationMs)} ms`],
  completed: ['Completed at', (r) => formatDateTime(r.timestamp)],
} satisfies Record<string, Field>;

interface MaintenanceCard {
  kind: Exclude<MaintenanceKind, 'massDelete'>;
  label: string;
  description: string;
  action: string;
  fields: Field[];
  /** Deletes data (a confirmation first; the spec's 'deleted successfully' toasts). */
  destructive: boolean;
}

const CARDS: MaintenanceCard[] = [
  {
    kind: 'files',
    label: 'Files',
    description: 'Delete every uploaded file: the stored originals and the file records.',
    action: 'Delete Files',
    fields: [FIELDS.filesDeleted, FIELDS.fileRecords, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'fileData',
    label: 'File Data',
    description: 'Delete the searchable rows of every file; the file records stay.',
    action: 'Delete File Data',
    fields: [FIELDS.fileData, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'exportHistory',
    label: 'Export History',
    description: 'Delete every export history entry and its kept file.',
    action: 'Delete Export History',
    fields: [FIELDS.exports, FIELDS.total, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'searchIndex',
    label: SEARCH_ENGINE_NAME,
    description: `Clear the ${SEARCH_ENGINE_NAME} search index (every searchable row).`,
    action: `Clear ${SEARCH_ENGINE_NAME}`,
    fields: [FIELDS.searchIndex, FIELDS.fileData, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'uploadTracking',
    label: 'Upload Tracking',
    description: 'Delete every upload session and its tracking data.',
    action: 'Clear Upload Tracking',
    fields: [FIELDS.tracking, FIELDS.duration],
    destructive: true,
  },
  {
    kind: 'reindex',
    label: `${SEARCH_ENGINE_NAME} Reindex`,
    description: `Rebuild the ${SEARCH_ENGINE_NAME} search index from all database files (each file is ingested again from its original).`,
    action: `Rebuild ${SEARCH_ENGINE_NAME} Index`,
    fields: [FIELDS.reindexed, FIELDS.duration],
    destructive: false,
  },
];

const MASS_DELETE_FIELDS: Field[] = [
  FIELDS.fileData,
  FIELDS.fileRecords,
  FIELDS.exports,
  FIELDS.total,
  FIELDS.searchIndex,
  FIELDS.tracking,
  FIELDS.duration,
  FIELDS.completed,
];

/** The fields of a deletion result as a two-column table, with its warnings. */
function ResultPanel({ title, result, fields }: { title: string; result: DeletionResult; fields: Field[] }) {
  const warnings = [
    result.clickHouseError && `${SEARCH_ENGINE_NAME}: ${result.clickHouseError}`,
    result.uploadTrackingError && `Upload tracking: ${result.uploadTrackingError}`,
  ].filter(Boolean);
  return (
    <Stack gap="xs" role="status" aria-label={title}>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm">
        <Table.Tbody>
          {fields.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td ta="right">{value(result)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {warnings.map((warning) => (
        <Alert key={warning} color="yellow" title="Warning" p="xs">
          {warning}
        </Alert>
      ))}
    </Stack>
  );
}

/** Spec section 8: the server's error field, else the message, else 'Unknown error'. */
const reason = (error: unknown) =>
  errorMessage(error, error instanceof Error ? error.message : 'Unknown error');

/** Where the mass delete's confirmations stand (it runs once the phrase is typed). */
type MassDeleteStep = 'idle' | 'confirm' | 'confirm-again' | 'type';

/** /admin/system: data maintenance cards and the mass delete (spec section 2, Admin System). */
export function AdminSystemPage() {
  const maintenance = useMaintenance();
  const [results, setResults] = useState<Partial<Record<MaintenanceKind, DeletionResult>>>({});
  const [confirming, setConfirming] = useState<MaintenanceCard | null>(null);
  const [step, setStep] = useState<MassDeleteStep>('idle');
  const [typed, setTyped] = useState('');
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

  const runCard = (card: MaintenanceCard) => {
    setConfirming(null);
    run(
      card.kind,
      card.label,
      () =>
        notify.success(
          card.destructive ? `${card.label} deleted successfully` : `${card.label} completed successfully`,
        ),
      (error) =>
        notify.error(
          `${card.destructive ? 'Failed to delete' : 'Failed to run'} ${card.label}: ${reason(error)}`,
        ),
    );
  };

  const runMassDelete = () => {
    setStep('idle');
    setTyped('');
    run(
      'massDelete',
      'Mass deletion',
      () => notify.success('Mass deletion completed successfully'),
      (error) => notify.error(`Mass deletion failed: ${reason(error)}`),
    );
  };

  const massResult = results.massDelete;
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
        {CARDS.map((card) => {
          const result = results[card.kind];
          return (
            <Card
              key={card.kind}
              withBorder
              radius="md"
              padding="lg"
              component="section"
              aria-label={card.label}
            >
              <Stack gap="sm" h="100%">
                <Title order={2} size="h4">
                  {card.label}
                </Title>
                <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                  {card.description}
                </Text>
                <Button
                  color={card.destructive ? 'red' : 'blue'}
                  variant="light"
                  loading={running === card.kind}
                  disabled={running !== null && running !== card.kind}
                  onClick={() => setConfirming(card)}
                >
                  {card.action}
                </Button>
                {result && (
                  <ResultPanel title={`${card.label} result`} result={result} fields={card.fields} />
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>

      <Card
        withBorder
        radius="md"
        padding="lg"
        component="section"
        aria-label="Danger zone"
        style={{ borderColor: 'var(--mantine-color-red-6)' }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" c="red">
            Danger zone
          </Title>
          <Text size="sm">
            Delete every file, all file data, the export history, the {SEARCH_ENGINE_NAME} search index and
            all upload tracking, for every account.
          </Text>
          <Group>
            <Button
              color="red"
              loading={running === 'massDelete'}
              disabled={running !== null}
              onClick={() => setStep('confirm')}
            >
              DELETE ALL FILES AND DATA
            </Button>
            {running === 'massDelete' && (
              <Group gap="xs" role="status">
                <Loader size="sm" color="red" />
                <Text size="sm">Deleting all files and data...</Text>
              </Group>
            )}
          </Group>
          {massResult && (
            <Stack gap={4}>
              <Text fw={600} size="sm">
                Mass deletion result
              </Text>
              <ResultPanel title="Mass deletion result" result={massResult} fields={MASS_DELETE_FIELDS} />
            </Stack>
          )}
        </Stack>
      </Card>

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
        onConfirm={() => confirming && runCard(confirming)}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        opened={step === 'confirm'}
        title="Delete all files and data?"
        message="Every file, all file data, the export history, the search index and all upload tracking will be deleted for every account."
        confirmLabel="Continue"
        onConfirm={() => setStep('confirm-again')}
        onCancel={() => setStep('idle')}
      />
      <ConfirmDialog
        opened={step === 'confirm-again'}
        title="Are you absolutely sure?"
        message="This cannot be undone. Nothing deleted here can be recovered except from a snapshot."
        confirmLabel="Yes, continue"
        onConfirm={() => setStep('type')}
        onCancel={() => setStep('idle')}
      />
      <Modal opened={step === 'type'} onClose={() => setStep('idle')} title="Type to confirm" centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === MASS_DELETE_CONFIRMATION) runMassDelete();
            else {
              setStep('idle');
              setTyped('');
              notify.error('Mass deletion cancelled - confirmation text did not match');
            }
          }}
        >
          <Stack gap="md">
            <TextInput
              label={`Type ${MASS_DELETE_CONFIRMATION} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setStep('idle')}>
                Cancel
              </Button>
              <Button type="submit" color="red">
                Delete Everything
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
