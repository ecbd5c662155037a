import { useState } from 'react';
import { Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MASS_DELETE_CONFIRMATION, type DeletionResult } from '@sift/shared/contracts';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { TypeToConfirm } from '../../../../components/TypeToConfirm/TypeToConfirm';
import { MASS_DELETE_FIELDS, SEARCH_ENGINE_NAME } from '../../maintenance';
import { ResultPanel } from '../ResultPanel/ResultPanel';

/** Where the mass delete's confirmations stand (it runs once the phrase is typed). */
type MassDeleteStep = 'idle' | 'confirm' | 'confirm-again' | 'type';

export interface MassDeleteCardProps {
  /** The mass delete is running. */
  running: boolean;
  /** Another maintenance call is running. */
  blocked: boolean;
  result: DeletionResult | undefined;
  /** Called once both confirmations are given and the phrase typed exactly. */
  onConfirmed: () => void;
  /** Called when the typed phrase does not match (nothing is deleted). */
  onMismatch: () => void;
}

/**
 * The danger zone: DELETE ALL FILES AND DATA, asked twice and then confirmed by typing
 * MASS_DELETE_CONFIRMATION; its result once done.
 */
export function MassDeleteCard({ running, blocked, result, onConfirmed, onMismatch }: MassDeleteCardProps) {
  const [step, setStep] = useState<MassDeleteStep>('idle');
  const close = () => setStep('idle');
  return (
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
          Delete every file, all file data, the export history, the {SEARCH_ENGINE_NAME} search index and all
          upload tracking, for every account.
        </Text>
        <Group>
          <Button
            color="red"
            loading={running}
            disabled={running || blocked}
            onClick={() => setStep('confirm')}
          >
            DELETE ALL FILES AND DATA
          </Button>
          {running && (
            <Group gap="xs" role="status">
              <Loader size="sm" color="red" />
              <Text size="sm">Deleting all files and data...</Text>
            </Group>
          )}
        </Group>
        {result && (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              Mass deletion result
            </Text>
            <ResultPanel title="Mass deletion result" result={result} fields={MASS_DELETE_FIELDS} />
          </Stack>
        )}
      </Stack>

      <ConfirmDialog
        opened={step === 'confirm'}
        title="Delete all files and data?"
        message="Every file, all file data, the export history, the search index and all upload tracking will be deleted for every account."
        confirmLabel="Continue"
        onConfirm={() => setStep('confirm-again')}
        onCancel={close}
      />
      <ConfirmDialog
        opened={step === 'confirm-again'}
        title="Are you absolutely sure?"
        message="This cannot be undone. Nothing deleted here can be recovered except from a snapshot."
        confirmLabel="Yes, continue"
        onConfirm={() => setStep('type')}
        onCancel={close}
      />
      <TypeToConfirm
        opened={step === 'type'}
        title="Type to confirm"
        phrase={MASS_DELETE_CONFIRMATION}
        submitLabel="Delete Everything"
        onClose={close}
        onSubmit={(matches) => {
          close();
          if (matches) onConfirmed();
          else onMismatch();
        }}
      />
    </Card>
  );
}
