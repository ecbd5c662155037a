/**
 * Memory allocator options of the embedded engine, set before chDB's library is loaded (its
 * jemalloc reads `JE_MALLOC_CONF` once, when it starts; an operator's own value is kept).
 *
 * ClickHouse's defaults keep freed pages for seconds and return them from the allocating threads,
 * so resident memory climbs through a long INSERT; a background purging thread with a shorter decay
 * returns them sooner without slowing the ingest (a still shorter decay does; docs/benchmarks.md,
 * "The embedded engine's allocator").
 */
export const ENGINE_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000';

process.env.JE_MALLOC_CONF ??= ENGINE_MALLOC_CONF;

/**
 * How often, in ms, the embedded engine's allocator is purged while heavy work runs (see
 * {@link MemoryPurger}).
 */
export const ENGINE_PURGE_INTERVAL_MS = 100;

/**
 * Returns the embedded engine's freed pages to the kernel every {@link ENGINE_PURGE_INTERVAL_MS}
 * while heavy work (an ingest's load, an export) is under way: `SYSTEM JEMALLOC PURGE`, the
 * allocator's `arena.<all>.purge`, on a pooled connection.
 *
 * Loading a file frees and reallocates the buffers of every part it writes and merges, and the
 * allocator keeps freed pages resident until they have aged ({@link ENGINE_MALLOC_CONF}), so
 * most of an ingest's resident memory is pages already freed. Purging often keeps that down at
 * little cost in speed; a decay of 0 would free the most but slows the ingest (docs/benchmarks.md,
 * "Purging the engine's allocator during heavy work").
 *
 * The first purge runs when the first piece of work starts; purges never overlap (a tick is
 * skipped while one runs). If the engine refuses a purge, purging stops for the process and
 * `onError` hears why once; the work itself is never failed by it.
 */
export class MemoryPurger {
  #active = 0;
  #timer: NodeJS.Timeout | undefined;
  #purging = false;
  #failed = false;
  #purges = 0;

  /**
   * `purge`: one purge of the engine's allocator (rejects if the engine refuses it); `onError`:
   * told once when a purge fails; `intervalMs`: between purges.
   */
  constructor(
    private readonly purge: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly intervalMs = ENGINE_PURGE_INTERVAL_MS,
  ) {}

  /** Purges that have completed since the purger was made (for tests and diagnostics). */
  get purges(): number {
    return this.#purges;
  }

  /** Runs `work`, purging while it (or any other work run through this purger) is under way. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active++ === 0 && !this.#failed) {
      this.#tick();
      this.#timer = setInterval(() => this.#tick(), this.intervalMs);
      this.#timer.unref();
    }
    try {
      return await work();
    } finally {
      if (--this.#active === 0) this.#stop();
    }
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    if (this.#purging || this.#failed) return;
    this.#purging = true;
    this.purge().then(
      () => {
        this.#purges++;
        this.#purging = false;
      },
      (error: unknown) => {
        this.#failed = true;
        this.#purging = false;
        this.#stop();
        this.onError(error);
      },
    );
  }
}
