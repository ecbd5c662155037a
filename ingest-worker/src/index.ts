/**
 * `@sift/ingest-worker`: the ingest pipeline and its BullMQ worker. Processes start it through
 * startIngestRuntime (one composition root); ingestFile runs the pipeline on its own (benchmarks).
 */
export { loadWorkerConfig, workerConfigOf, type WorkerConfig } from './config.ts';
export {
  openConfiguredStorage,
  startIngestRuntime,
  type IngestRuntime,
  type IngestRuntimeOptions,
} from './runtime.ts';
export { failFile, fileRecord, ingestFile } from './pipeline/ingest-file.ts';
export { RECORD_UNSEEN_MESSAGE, RecordNotReplicatedError } from './failure-message.ts';
export type { CsvLoader, IngestDeps } from './pipeline/types.ts';
export { disablePretenuring } from './pretenuring.ts';
export { watchQueueMetrics } from './queue-metrics.ts';
export { STRANDED_MESSAGE, StrandedFiles } from './stranded.ts';
