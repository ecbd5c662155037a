/**
 * Memory allocator options of the embedded engine, set before chDB's library is loaded (its
 * jemalloc reads `JE_MALLOC_CONF` once, when it starts; an operator's own value is kept).
 *
 * The engine frees and reallocates large buffers at each part it writes. jemalloc's defaults in
 * ClickHouse keep freed pages for 5 s (`dirty_decay_ms:5000`) and return them from the allocating
 * threads, so resident memory climbs through a long INSERT. A background purging thread with a short
 * decay returns them without slowing the load. Measured with a 497 MB CSV (1.7M rows, 10 columns,
 * engine loader, fresh process): peak RSS 671–760 MB with the defaults, see the README for these.
 */
export const ENGINE_MALLOC_CONF =
  process.env.SIFT_PROBE_MALLOC ?? 'background_thread:true,dirty_decay_ms:250';

process.env.JE_MALLOC_CONF ??= ENGINE_MALLOC_CONF;
