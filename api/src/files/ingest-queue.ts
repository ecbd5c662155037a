import type { Queue } from 'bullmq';
import {
  INGEST_FILE_JOB,
  INGEST_JOB_OPTIONS,
  MAX_INGEST_TURN,
  type IngestFilePayload,
  type IngestQueue,
} from '@sift/shared/jobs';

/**
 * The ingest queue on BullMQ: each file's job under INGEST_FILE_JOB with the retry defaults, its id
 * the file's unless one is given, its turn as its priority. Built once, by the composition root (server.ts).
 *
 * @param queue - BullMQ's queue named INGEST_QUEUE, on the producer's Redis connection
 * @returns the queue as UploadIntake uses it
 */
export function bullIngestQueue(queue: Queue<IngestFilePayload>): IngestQueue {
  return {
    async add(payload, { jobId, turn = 1 } = {}) {
      await queue.add(INGEST_FILE_JOB, payload, {
        ...INGEST_JOB_OPTIONS,
        jobId: jobId ?? payload.fileId,
        // BullMQ takes a lower priority first, and queued order among equals. Every job carries
        // one: BullMQ takes jobs without a priority before any with one.
        priority: Math.min(Math.max(1, Math.floor(turn)), MAX_INGEST_TURN),
      });
    },
    async counts() {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
      return {
        // A job with a priority (every job's turn) waits in BullMQ's 'prioritized' state.
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        failed: c.failed ?? 0,
      };
    },
  };
}
