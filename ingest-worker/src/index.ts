/** `@sift/ingest-worker`: the ingest pipeline and its BullMQ worker. */
export * from './jobs.ts';
export * from './ingest.ts';
export * from './worker.ts';
export * from './authors.ts';
export * from './tracking.ts';
export * from './parse/index.ts';
export * from './heap.ts';
