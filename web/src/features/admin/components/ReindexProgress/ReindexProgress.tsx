import { Progress, Stack, Text } from '@mantine/core';
import { useSystemStats } from '../../api';

/**
 * A reindex's progress on its System Admin card, from the ingest queue (every account's files):
 * how many of the `queued` files were read again, and how many wait or are being read; followed
 * until the queue is empty. Searches stay complete meanwhile (each file switches over when done).
 */
export function ReindexProgress({ queued }: { queued: number }) {
  const stats = useSystemStats();
  const queue = stats.data?.queue;
  if (!queue || queued === 0) return null;
  const left = queue.waiting + queue.active + queue.delayed;
  const done = Math.max(0, queued - left);
  const finished = left === 0;
  return (
    <Stack gap={4} role="status" aria-label="Reindex progress">
      <Text size="sm">
        {finished
          ? `Reindex done: ${queued} file(s) read again.`
          : `${done} of ${queued} file(s) read again; ${queue.active} being read, ${queue.waiting + queue.delayed} waiting.`}
      </Text>
      <Progress value={(done / queued) * 100} size="sm" aria-hidden />
    </Stack>
  );
}
