import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useActiveUploadSessions } from '../../api';

/** The upload session a reindex opens in each account (System Admin's Rebuild). */
export const REINDEX_SESSION_NAME = 'Reindex';

/**
 * Says, on the search screens, that the search index is being rebuilt for this account's files,
 * with how many were read again (from the account's active upload sessions, polled every 5 s).
 * Nothing leaves the results meanwhile: each file keeps its rows until its new ones are in.
 */
export function ReindexNotice() {
  const active = useActiveUploadSessions();
  const reindexes = (active.data?.sessions ?? []).filter(
    ({ session }) => session.sessionName === REINDEX_SESSION_NAME && !session.isCompleted,
  );
  if (!reindexes.length) return null;
  const total = reindexes.reduce((n, { session }) => n + session.totalFiles, 0);
  const done = reindexes.reduce((n, { session }) => n + session.completedFiles + session.failedFiles, 0);
  const percent = reindexes.reduce((n, { session }) => n + session.progressPercentage, 0) / reindexes.length;
  return (
    <Alert color="blue" variant="light" role="status" title="The search index is being rebuilt">
      <Stack gap={6}>
        <Text size="sm">
          {done} of {total} of your files read again. Results stay complete meanwhile: each file is searched
          with its current rows until its new ones are in.
        </Text>
        <Progress value={percent} size="sm" aria-label="Reindex progress" />
      </Stack>
    </Alert>
  );
}
