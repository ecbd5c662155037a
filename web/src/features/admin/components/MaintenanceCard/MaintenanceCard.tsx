import type { ReactNode } from 'react';
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import type { DeletionResult } from '@sift/shared/contracts';
import type { MaintenanceAction } from '../../maintenance';
import { ResultPanel } from '../ResultPanel/ResultPanel';

export interface MaintenanceCardProps {
  action: MaintenanceAction;
  /** This card's call is running (its button spins). */
  running: boolean;
  /** Another call is running (one at a time: this button waits). */
  blocked: boolean;
  /** The last result of this card's call, shown under it. */
  result: DeletionResult | undefined;
  onRequest: (action: MaintenanceAction) => void;
  /** Shown under the result (the reindex's progress). */
  children?: ReactNode;
}

/** One maintenance action: what it does, its button (which asks for confirmation), its last result. */
export function MaintenanceCard({
  action,
  running,
  blocked,
  result,
  onRequest,
  children,
}: MaintenanceCardProps) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={action.label}>
      <Stack gap="sm" h="100%">
        <Title order={2} size="h4">
          {action.label}
        </Title>
        <Text size="sm" c="dimmed" style={{ flex: 1 }}>
          {action.description}
        </Text>
        <Button
          color={action.destructive ? 'red' : 'blue'}
          variant="light"
          loading={running}
          disabled={blocked}
          onClick={() => onRequest(action)}
        >
          {action.action}
        </Button>
        {result && <ResultPanel title={`${action.label} result`} result={result} fields={action.fields} />}
        {children}
      </Stack>
    </Card>
  );
}
