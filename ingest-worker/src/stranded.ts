/**
 * Files left PROCESSING after their ingest ended: when the engine's disk filled during an ingest,
 * marking the file FAILED failed too (the same disk), and nothing tried again once space was freed,
 * so the file stayed PROCESSING for good. A sweep finds GENERAL files PROCESSING that no job of the
 * queue holds (waiting, active, delayed) in two sweeps running, and marks them FAILED with the reason
 * of their last failed job, or a general one.
 */
import type { Queue } from 'bullmq';
import type { FileRow, Storage } from '@sift/clickhouse';
import { INGEST_JOB_SCHEMAS, type IngestFilePayload } from '@sift/shared/jobs';
import { serverFailureMessage } from './failure-message.ts';
import { failFile } from './pipeline/ingest-file.ts';

/** How often the worker runtime sweeps, in ms. */
export const STRANDED_SWEEP_MS = 5 * 60_000;

/** Why a file failed whose ingest ended without saying so and left no failed job. */
export const STRANDED_MESSAGE =
  'Processing this file stopped and could not be resumed. Upload it again, or read it again from its import report.';

/** Job states in which a job still holds its file (it will be ingested, or is being). */
const IN_HAND = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

/**
 * Sweeps of the stranded files of one queue. A file is failed only when two sweeps in a row find
 * it stranded: a file is recorded PROCESSING a moment before its job is queued, and a sweep between
 * the two must not fail it.
 */
export class StrandedFiles {
  /** Files found stranded by the last sweep. */
  #suspects = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly queue: Queue,
    private readonly log: (message: string, detail?: unknown) => void = () => {},
  ) {}

  /**
   * One sweep: marks FAILED the GENERAL files PROCESSING that no job holds now nor held at the
   * last sweep.
   *
   * @returns the ids of the files marked FAILED
   */
  async sweep(): Promise<string[]> {
    const processing = (await this.storage.files.listAll()).filter(
      (f) => f.status === 'PROCESSING' && f.fileType === 'GENERAL',
    );
    // The jobs are read after the files: a file recorded before its job was queued is then seen held.
    const held = new Set<string>();
    for (const job of await this.queue.getJobs([...IN_HAND])) {
      const fileId = (job?.data as { fileId?: unknown } | undefined)?.fileId;
      if (typeof fileId === 'string') held.add(fileId);
    }
    const stranded = processing.filter((f) => !held.has(f.id));
    const failed: string[] = [];
    const reasons = stranded.some((f) => this.#suspects.has(f.id)) ? await this.#failureReasons() : new Map();
    for (const file of stranded) {
      if (!this.#suspects.has(file.id)) continue;
      const reason = reasons.get(file.id);
      const message = reason === undefined ? STRANDED_MESSAGE : serverFailureMessage(new Error(reason));
      await failFile(this.storage, payloadOf(file), message);
      this.log(`File ${file.id} was left PROCESSING with no job holding it: marked FAILED`, message);
      failed.push(file.id);
    }
    this.#suspects = new Set(stranded.filter((f) => !failed.includes(f.id)).map((f) => f.id));
    return failed;
  }

  /** The reason of each file's last failed job, by file id. */
  async #failureReasons(): Promise<Map<string, string>> {
    const reasons = new Map<string, { at: number; reason: string }>();
    for (const job of await this.queue.getJobs(['failed'])) {
      const payload = INGEST_JOB_SCHEMAS['ingest-file'].safeParse(job?.data);
      if (!job || !payload.success) continue;
      const at = job.finishedOn ?? 0;
      const seen = reasons.get(payload.data.fileId);
      if (!seen || seen.at < at) reasons.set(payload.data.fileId, { at, reason: job.failedReason ?? '' });
    }
    return new Map([...reasons].map(([id, { reason }]) => [id, reason]));
  }
}

/** What failFile needs of a file's record. */
function payloadOf(file: FileRow): IngestFilePayload {
  return {
    fileId: file.id,
    ownerId: file.ownerId,
    storedName: file.filename,
    originalFilename: file.originalFilename,
  };
}
