import { Badge, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import type { TrackedFile, UploadSessionSummary } from '@sift/shared/contracts';
import {
  fileStatusColor,
  fileStatusLabel,
  formatPercent,
  isFileActive,
  processedText,
  showsStage,
} from '../../uploadSessions';
import { FileTypeBadge } from '../../../../components/StatusBadge/StatusBadge';
import classes from './UploadSessionDetail.module.css';

/** What names a file's bars: its name, with the type when it is a derived AUTHOR file of the same name. */
function fileLabel(file: TrackedFile): string {
  return file.fileType === 'AUTHOR' ? `${file.fileName} (AUTHOR)` : file.fileName;
}

/**
 * One upload session in detail (spec section 2): name, overall percentage with one decimal and a
 * bar, then each file with its type, status and percentage; stage n of m with a stage bar while it
 * is being processed, the reason when it failed.
 */
export function UploadSessionDetail({ summary }: { summary: UploadSessionSummary }) {
  const { session, files } = summary;
  const percent = formatPercent(session.progressPercentage, 1);
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div className={classes.name}>
          <Title order={3} size="h5">
            {session.sessionName}
          </Title>
          <Text size="sm" c="dimmed">
            {processedText(session)}
            {session.failedFiles > 0 && ` (${session.failedFiles} failed)`}
            {!session.finalized && ', more files on the way'}
          </Text>
        </div>
        <Text fw={700} className={classes.percent}>
          {percent}
        </Text>
      </Group>
      <Progress
        value={session.progressPercentage}
        aria-label={`${session.sessionName} progress`}
        color={session.isCompleted && session.failedFiles === 0 ? 'green' : undefined}
        animated={session.isActive && files.some(isFileActive)}
      />
      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          No files in this session yet
        </Text>
      ) : (
        <ul className={classes.files} aria-label={`Files of ${session.sessionName}`}>
          {files.map((file) => (
            <TrackedFileItem key={file.fileId} file={file} />
          ))}
        </ul>
      )}
    </Stack>
  );
}

function TrackedFileItem({ file }: { file: TrackedFile }) {
  const active = isFileActive(file);
  const label = fileLabel(file);
  const stage = showsStage(file);
  return (
    <li className={classes.file} data-status={file.status} data-file-type={file.fileType}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" className={classes.name}>
            {active && <Loader size={14} aria-hidden />}
            <Text size="sm" fw={500} className={classes.name}>
              {file.fileName}
            </Text>
            <FileTypeBadge fileType={file.fileType} />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Badge color={fileStatusColor(file.status)} variant="light">
              {fileStatusLabel(file.status)}
            </Badge>
            <Text size="sm" fw={600} className={classes.percent}>
              {formatPercent(file.progressPercentage, 0)}
            </Text>
          </Group>
        </Group>
        <Progress
          size="sm"
          value={file.progressPercentage}
          color={file.status === 'FAILED' ? 'red' : file.status === 'COMPLETED' ? 'green' : undefined}
          aria-label={`${label} progress`}
        />
        {stage && (
          <Stack gap={4}>
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                Stage {file.currentStage} of {file.totalStages}
                {file.stageDescription && `: ${file.stageDescription}`}
              </Text>
              <Text size="xs" c="dimmed" className={classes.percent}>
                {formatPercent(file.stageProgress, 0)}
              </Text>
            </Group>
            <Progress
              size="xs"
              color="teal"
              value={file.stageProgress}
              aria-label={`${label} stage ${file.currentStage} of ${file.totalStages} progress`}
            />
          </Stack>
        )}
        {!stage && active && file.stageDescription && (
          <Text size="xs" c="dimmed">
            {file.stageDescription}
          </Text>
        )}
        {file.status === 'FAILED' && (
          <Text size="sm" c="red.8">
            {file.errorMessage || 'Processing failed.'}
          </Text>
        )}
      </Stack>
    </li>
  );
}
