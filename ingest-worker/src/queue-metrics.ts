/** The ingest queue as the metrics see it (`sift_ingest_queue_*`, `@sift/shared/metrics`). */
import type { Queue } from 'bullmq';
import { oldestWaitingMs } from '@sift/shared/jobs';
import { watchIngestQueue } from '@sift/shared/metrics';

/** States of the ingest queue's jobs the depth gauge reports. */
const STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/** Has each scrape report `queue`'s jobs by state and the age of its oldest waiting job. */
export function watchQueueMetrics(queue: Queue): void {
  watchIngestQueue({
    counts: () => queue.getJobCounts(...STATES),
    oldestWaitingMs: () => oldestWaitingMs(queue),
  });
}
