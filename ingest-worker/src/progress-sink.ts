/**
 * The worker side's one progress sink: where an ingest job's stages report and where its outcome
 * goes (the job's own progress, and the file's entry in its upload session).
 */
import type { Job } from 'bullmq';
import type { FileRow } from '@sift/clickhouse';
import type { IngestProgress } from '@sift/shared/jobs';
import { ingestsEnded, ingestStageSeconds, rowsIngested } from '@sift/shared/metrics';
import type { TrackedFilePatch, UploadTracker } from '@sift/shared/upload-tracking';

/** What a file's upload session says while its ingest waits for a ClickHouse node to be back. */
export const NODE_AWAY_DESCRIPTION = 'Waiting for a database node to be back';

/** Overall percent from stage n of m and the stage's percent; 100 is kept for "searchable". */
export function overallPercent(p: IngestProgress): number {
  return Math.min(99, Math.round(((p.stage - 1 + p.stageProgress / 100) / p.totalStages) * 1000) / 10);
}

/**
 * Where one ingest job's progress and outcome go, on the worker side: the job's own progress
 * (BullMQ) and the file's entry in its upload session (when the job has one). The pipeline's stages
 * report to `report`; the worker reports the outcome. Tracking is for display: a Redis hiccup
 * there is logged, never fails the ingest.
 */
export class ProgressSink {
  constructor(
    private readonly job: Pick<Job, 'updateProgress'> | null,
    private readonly tracker: UploadTracker,
    private readonly file: { sessionId?: string | undefined; fileId: string },
    private readonly log: (message: string, detail?: unknown) => void,
  ) {}

  /** The stage reporting now, and since when (performance.now(), ms), for its duration's metric. */
  #stage: { description: string; since: number } | null = null;

  /** Ends the current stage's timing (`sift_ingest_stage_duration_seconds`). */
  #endStage(): void {
    if (this.#stage)
      ingestStageSeconds.observe(
        { stage: this.#stage.description },
        (performance.now() - this.#stage.since) / 1000,
      );
    this.#stage = null;
  }

  /** The job ended (`sift_ingests_total`): its last stage's timing ends with it. */
  #ended(outcome: 'processed' | 'failed' | 'retried' | 'handed_back' | 'waiting_for_node'): void {
    this.#endStage();
    ingestsEnded.inc({ outcome });
  }

  /** A stage's progress: on the job, and in the session (PREPROCESSING while validating). */
  readonly report = async (p: IngestProgress): Promise<void> => {
    if (this.#stage?.description !== p.stageDescription) {
      this.#endStage();
      this.#stage = { description: p.stageDescription, since: performance.now() };
    }
    await this.job?.updateProgress({ ...p });
    await this.#track({
      status: p.stage === 1 ? 'PREPROCESSING' : 'PROCESSING',
      currentStage: p.stage,
      totalStages: p.totalStages,
      stageProgress: p.stageProgress,
      stageDescription: p.stageDescription,
      progressPercentage: overallPercent(p),
    });
  };

  /**
   * The ingest is done: its AUTHOR files join the session first (so the session never looks
   * complete without them), then the file completes.
   *
   * @param written - the records the ingest wrote
   */
  async completed(written: FileRow[]): Promise<void> {
    this.#ended('processed');
    rowsIngested.inc(written.filter((f) => f.fileType === 'GENERAL').reduce((n, f) => n + f.totalRows, 0));
    const authorFiles = written.filter((f) => f.fileType === 'AUTHOR');
    const { sessionId } = this.file;
    if (sessionId && authorFiles.length) {
      await this.tracker
        .addFiles(
          sessionId,
          authorFiles.map((f) => ({
            fileId: f.id,
            fileName: f.originalFilename,
            fileType: 'AUTHOR',
            status: 'COMPLETED',
          })),
        )
        .catch((e: unknown) => this.log('Tracking update failed', e));
    }
    await this.#track({
      status: 'COMPLETED',
      progressPercentage: 100,
      stageProgress: 100,
      stageDescription: 'Ready to search',
    });
  }

  /** The file failed for good, with a message the user can act on. */
  failed(message: string): Promise<void> {
    this.#ended('failed');
    return this.#track({ status: 'FAILED', errorMessage: message, stageDescription: 'Failed' });
  }

  /** The job will be tried again after an error. */
  retrying(): Promise<void> {
    this.#ended('retried');
    return this.#track({ status: 'PENDING', stageDescription: 'Retrying after an error' });
  }

  /** The job waits, without spending a try, for a ClickHouse node it needs to answer again. */
  waitingForNode(): Promise<void> {
    this.#ended('waiting_for_node');
    return this.#track({ status: 'PENDING', stageDescription: NODE_AWAY_DESCRIPTION });
  }

  /** The job went back to the queue untouched (the process is stopping). */
  handedBack(): Promise<void> {
    this.#ended('handed_back');
    return this.#track({ status: 'PENDING', stageDescription: 'Waiting to be processed' });
  }

  async #track(patch: TrackedFilePatch): Promise<void> {
    const { sessionId, fileId } = this.file;
    if (!sessionId) return;
    await this.tracker
      .updateFile(sessionId, fileId, patch)
      .catch((e: unknown) => this.log('Tracking update failed', e));
  }
}
