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
 * full collection: 120–195 MB of it at the peak of a 200,000-row xlsx ingest, against 50 MB with
 * pretenuring off. Measured here with Sift alone (the bundled server, upload → PROCESSED, scratch
 * probe of this commit, three and four runs): peak RSS 437–523 MB with V8's default, 394–403 MB
 * without pretenuring, and the ingest no slower (6.3–7.6 s against 7.4–8.3 s).
 *
 * Call it once, before the work starts (entry points: startSift, the stand-alone ingest worker).
 */
export function disablePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
