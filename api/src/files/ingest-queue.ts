import type { Job, JobType, Queue } from 'bullmq';
import type { AdminQueueJob } from '@sift/shared/contracts';
import {
  INGEST_FILE_JOB,
  INGEST_JOB_OPTIONS,
  MAX_INGEST_TURN,
  oldestWaitingMs,
  type IngestFilePayload,
  type IngestProgress,
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
    oldestWaitingMs: () => oldestWaitingMs(queue),
    async jobs(limit) {
      const read = async (state: AdminQueueJob['state'], type: JobType, asc: boolean) =>
        (await queue.getJobs([type], 0, limit - 1, asc))
          .filter((job): job is Job<IngestFilePayload> => !!job)
          .map((job) => summaryOf(job, state));
      const [active, prioritized, waiting, delayed, failed] = await Promise.all([
        read('active', 'active', true),
        // Every job has a priority (its turn), so waits in 'prioritized': by priority, then queued.
        read('waiting', 'prioritized', true),
        read('waiting', 'waiting', true),
        read('delayed', 'delayed', true),
        read('failed', 'failed', false),
      ]);
      return [...active, ...[...prioritized, ...waiting].slice(0, limit), ...delayed, ...failed];
    },
  };
}

/** A BullMQ job of the ingest queue as the queue view lists it. */
function summaryOf(job: Job<IngestFilePayload>, state: AdminQueueJob['state']): AdminQueueJob {
  const progress = (typeof job.progress === 'object' ? job.progress : null) as Partial<IngestProgress> | null;
  const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);
  return {
    id: job.id ?? '',
    state,
    fileId: job.data.fileId,
    fileName: job.data.originalFilename,
    ownerId: job.data.ownerId,
    ownerEmail: '',
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    stage: progress?.stageDescription ?? null,
    stageProgress: typeof progress?.stageProgress === 'number' ? progress.stageProgress : null,
    processedBy: job.processedBy ?? null,
    queuedAt: iso(job.timestamp)!,
    startedAt: iso(job.processedOn),
    failedReason: job.failedReason || null,
  };
}
