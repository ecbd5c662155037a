import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { UploadSessionSummary } from '@sift/shared/contracts';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { errorMessage } from '../../../../api/client';
import { useActiveUploadSessions, useUploadSession, useUploadSessionSummaries } from '../../api';
import { queryKeys } from '../../../../api/queryKeys';
import { LocationImport } from '../LocationImport/LocationImport';
import { UploadDropzone } from '../UploadDropzone/UploadDropzone';
import { UploadSessionDetail } from '../UploadSessionDetail/UploadSessionDetail';
import { UploadSessionList } from '../UploadSessionList/UploadSessionList';
import { validateDroppedFiles, validateSelectedFiles } from '../../fileValidation';
import { formatBytes } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';
import type { UploadRunResult } from '../../uploadRun';
import { nextInRotation } from '../../uploadSessions';
import { useUploadStore, type UploadInFlight } from '../../store';

/** Spec sections 4 and 9: with more than one active session the detail rotates every 5 s. */
export const SESSION_ROTATION_MS = 5_000;

const ALREADY_UPLOADING = 'Upload already in progress. Please wait for the current upload to complete.';

/** /upload: upload files on selection, and watch every active upload session being processed. */
export function UploadScreen() {
  const queryClient = useQueryClient();
  const upload = useUploadSession();
  const inFlight = useUploadStore((state) => state.inFlight);
  const finishedIds = useUploadStore((state) => state.finished);
  const clearFinished = useUploadStore((state) => state.clearFinished);
  const active = useActiveUploadSessions();
  const sessions = active.data?.sessions ?? [];
  const finished = useUploadSessionSummaries(finishedIds);
  const [problems, setProblems] = useState<string[]>([]);
  const [rotationPaused, setRotationPaused] = useState(false);
  const [shownId, showSession] = useRotation(
    sessions.map(({ session }) => session.id),
    rotationPaused,
  );

  // Show this tab's new session as soon as it exists.
  const ownSessionId = inFlight?.sessionId;
  useEffect(() => {
    if (ownSessionId) showSession(ownSessionId);
  }, [ownSessionId, showSession]);

  const start = (files: File[], source: 'drop' | 'select') => {
    const store = useUploadStore.getState();
    if (store.uploading) {
      notify.error(ALREADY_UPLOADING);
      return;
    }
    const result = source === 'drop' ? validateDroppedFiles(files) : validateSelectedFiles(files);
    setProblems(result.errors);
    if (result.accepted.length === 0) return;
    if (!store.beginUpload(result.accepted.map((file) => file.name))) {
      notify.error(ALREADY_UPLOADING);
      return;
    }
    for (const file of result.large) {
      notify.info(`${file.name} is ${formatBytes(file.size)}; uploading and processing may take a while.`, {
        title: 'Large file',
      });
    }
    // mutateAsync settles even if this screen is left meanwhile, so the upload slot is always
    // released and the outcome still reported.
    upload
      .mutateAsync({
        files: result.accepted,
        onProgress: (progress) => useUploadStore.getState().updateProgress(progress),
      })
      .then((outcome) => {
        reportUpload(outcome);
        // Sessions that received files are reported by the UploadWatcher when they complete.
        if (outcome.summary && outcome.accepted.length > 0) {
          useUploadStore.getState().watchOwnSession(outcome.sessionId, Date.now());
          void queryClient.invalidateQueries({ queryKey: queryKeys.uploads.active() });
        }
      })
      .catch((error: unknown) => {
        console.error('Upload failed', error);
        notify.error(`Upload failed: ${errorMessage(error, 'Please try again.')}`);
      })
      .finally(() => useUploadStore.getState().finishUpload());
  };

  const shown = sessions.find(({ session }) => session.id === shownId) ?? sessions[0];
  const activeIds = new Set(sessions.map(({ session }) => session.id));
  const completed = finished
    .map((query, index) => ({ id: finishedIds[index] ?? String(index), query }))
    .filter(({ id }) => !activeIds.has(id));

  return (
    <Stack gap="lg">
      <PageHeader
        title="Upload Files"
        description="Upload Excel (.xlsx, .xls) or CSV files. Files start uploading automatically as soon as you select or drop them; each file is then processed in the background."
      />

      <UploadDropzone onDrop={(files) => start(files, 'drop')} onSelect={(files) => start(files, 'select')} />

      <LocationImport />

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

      {inFlight && <UploadingPanel inFlight={inFlight} />}

      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="active-sessions-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="active-sessions-title">
            Active Upload Sessions ({sessions.length})
          </Title>
          <VisuallyHidden role="status">
            {active.data &&
              `${sessions.length} active upload ${sessions.length === 1 ? 'session' : 'sessions'}`}
          </VisuallyHidden>
          {active.isPending ? (
            <Text size="sm" c="dimmed">
              Loading upload sessions...
            </Text>
          ) : active.isError && !active.data ? (
            <Text size="sm" c="red.8" role="alert">
              Could not load your upload sessions: {errorMessage(active.error, 'the server did not answer.')}{' '}
              Retrying every few seconds.
            </Text>
          ) : sessions.length === 0 ? (
            <Text size="sm" c="dimmed">
              No uploads are being processed right now.
            </Text>
          ) : (
            <UploadSessionList
              sessions={sessions}
              selectedId={shown?.session.id ?? null}
              onSelect={showSession}
            />
          )}
        </Stack>
      </Paper>

      {shown && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="session-detail-title">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} size="h4" id="session-detail-title">
                All Active Upload Sessions
              </Title>
              {sessions.length > 1 && (
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    Session {sessions.indexOf(shown) + 1} of {sessions.length}
                  </Text>
                  <Button size="compact-xs" variant="default" onClick={() => setRotationPaused((p) => !p)}>
                    {rotationPaused ? 'Resume rotation' : 'Pause rotation'}
                  </Button>
                </Group>
              )}
            </Group>
            <UploadSessionDetail summary={shown} />
          </Stack>
        </Paper>
      )}

      {completed.length > 0 && (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="completed-sessions-title">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} size="h4" id="completed-sessions-title">
                Completed Upload Sessions
              </Title>
              <Button size="compact-sm" variant="subtle" onClick={clearFinished}>
                Clear list
              </Button>
            </Group>
            {completed.map(({ id, query }) => (
              <CompletedSession key={id} summary={query.data} error={query.error} />
            ))}
          </Stack>
        </Paper>
      )}

      <Text size="sm" c="dimmed">
        Bulk uploads and large files may be delayed before they appear here and while they are processed, and
        progress percentages may be inaccurate. You can leave this screen: you will be told when processing
        finishes.
      </Text>
    </Stack>
  );
}

function CompletedSession({
  summary,
  error,
}: {
  summary: UploadSessionSummary | undefined;
  error: Error | null;
}) {
  if (summary) return <UploadSessionDetail summary={summary} />;
  if (error) {
    return (
      <Text size="sm" c="red.8">
        {errorMessage(error, 'Could not load this upload session.')}
      </Text>
    );
  }
  return <Loader size="sm" aria-label="Loading upload session" />;
}

/** This tab's upload while its files are being sent. */
function UploadingPanel({ inFlight }: { inFlight: UploadInFlight }) {
  const total = inFlight.totalFiles ?? inFlight.fileNames.length;
  const sent = inFlight.sentFiles ?? 0;
  const percent = total > 0 ? (sent / total) * 100 : 0;
  const names = inFlight.fileNames;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap" role="status">
          <Loader size="sm" aria-hidden />
          <Text>
            Uploading {names.length} {names.length === 1 ? 'file' : 'files'} ({sent} of {total} sent)
            {inFlight.nextRequestAt ? ', pausing between files' : ''}: {names.join(', ')}
          </Text>
        </Group>
        <Progress value={percent} aria-label="Upload progress" animated />
      </Stack>
    </Paper>
  );
}

/**
 * The session shown in detail: the one chosen (or the first), moving on to the next every 5 s while
 * more than one is active and rotation is not paused. Choosing one restarts the 5 s.
 */
function useRotation(ids: readonly string[], paused: boolean): [string | null, (id: string) => void] {
  const [chosen, setChosen] = useState<string | null>(null);
  const [restarts, setRestarts] = useState(0);
  const shown = chosen !== null && ids.includes(chosen) ? chosen : (ids[0] ?? null);
  const latest = useRef({ ids, shown });
  useEffect(() => {
    latest.current = { ids, shown };
  });
  const rotating = !paused && ids.length > 1;

  useEffect(() => {
    if (!rotating) return;
    const timer = setInterval(() => {
      setChosen(nextInRotation(latest.current.ids, latest.current.shown));
    }, SESSION_ROTATION_MS);
    return () => clearInterval(timer);
  }, [rotating, restarts]);

  const show = useCallback((id: string) => {
    setChosen(id);
    setRestarts((n) => n + 1);
  }, []);
  return [shown, show];
}

/** Tells the user which files did not arrive (the session reports the rest when it completes). */
function reportUpload(outcome: UploadRunResult<File>) {
  for (const { files, error } of outcome.failedRequests) {
    console.error('Upload failed', error);
    notify.error(`Upload failed: ${errorMessage(error, 'Please try again.')}`, {
      title: files.map((file) => file.name).join(', '),
    });
  }
  if (outcome.finalizeError && outcome.accepted.length > 0) {
    console.error('Upload session not finalized', outcome.finalizeError);
    notify.error(`Upload failed: ${errorMessage(outcome.finalizeError, 'Please try again.')}`, {
      title: 'The upload session could not be finished',
    });
  }
}
