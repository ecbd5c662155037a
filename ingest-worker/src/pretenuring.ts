import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for this process (`--no-allocation-site-pretenuring`,
 * set at run time; V8 reads it at each collection).
 *
 * V8 moves an allocation site to "pretenured" once enough of its objects survive a young-generation
 * collection, and from then on allocates them straight in the old generation, which is collected
 * only when it has grown. Parsing an xlsx sheet or writing an export makes millions of short-lived
 * objects (cells, strings, records) at a few sites; some survive a collection because a batch is in
 * flight when it runs, the sites get pretenured, and the old generation fills with garbage until a
 * full collection. Without pretenuring the peak is lower and the ingest no slower (docs/benchmarks.md,
 * "No allocation-site pretenuring").
 *
 * Call it once, before the work starts (entry points: startSift, the stand-alone ingest worker).
 */
export function disablePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
