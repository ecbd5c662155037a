import { Group, Progress, Stack, Text, UnstyledButton } from '@mantine/core';
import type { UploadSessionSummary } from '@sift/shared/contracts';
import { formatPercent, processedText } from '../../uploadSessions';
import classes from './UploadSessionList.module.css';

export interface UploadSessionListProps {
  sessions: readonly UploadSessionSummary[];
  /** The session shown in detail. */
  selectedId: string | null;
  onSelect: (sessionId: string) => void;
}

/**
 * One line per active upload session (spec section 2): its name (a button that shows it in
 * detail), 'x of y files processed', the percentage with no decimals and a bar.
 */
export function UploadSessionList({ sessions, selectedId, onSelect }: UploadSessionListProps) {
  return (
    <ul className={classes.list}>
      {sessions.map(({ session }) => (
        <li key={session.id} className={classes.item} data-selected={session.id === selectedId || undefined}>
          <Stack gap={6}>
            <Group justify="space-between" gap="sm" wrap="nowrap">
              <UnstyledButton
                className={classes.name}
                onClick={() => onSelect(session.id)}
                aria-pressed={session.id === selectedId}
                title="Show this session's files"
              >
                <Text size="sm" fw={600} span>
                  {session.sessionName}
                </Text>
              </UnstyledButton>
              <Group gap="md" wrap="nowrap">
                <Text size="sm" c="dimmed">
                  {processedText(session)}
                </Text>
                <Text size="sm" fw={700} className={classes.percent}>
                  {formatPercent(session.progressPercentage, 0)}
                </Text>
              </Group>
            </Group>
            <Progress value={session.progressPercentage} aria-label={`${session.sessionName} progress`} />
          </Stack>
        </li>
      ))}
    </ul>
  );
}
