/**
 * Memory allocator options of the embedded engine, set before chDB's library is loaded (its
 * jemalloc reads `JE_MALLOC_CONF` once, when it starts; an operator's own value is kept).
 *
 * The engine frees and reallocates large buffers at each part it writes. ClickHouse's jemalloc
 * defaults keep freed pages for 5 s (`dirty_decay_ms:5000`) and return them from the allocating
 * threads, so resident memory climbs through a long INSERT. A background purging thread with a 1 s
 * decay returns them sooner. Measured with `npm run bench` (one run each, this 2-core machine):
 *
 * | JE_MALLOC_CONF                     | 1M-row CSV ingest | 502 MB CSV ingest     |
 * |------------------------------------|-------------------|-----------------------|
 * | ClickHouse's (dirty_decay_ms:5000) | 5.98 s, 733 MB    | 11.8 s, 901 MB        |
 * | background thread, 1000 ms (this) | 6.64 s, 719 MB    | 12.7 s, 819 MB        |
 * | background thread, 250 ms          | 9.29 s, 646 MB    | 18.9 s, 738 MB        |
 *
 * (peak RSS). 250 ms saves more but costs a third of the ingest speed; 1 s keeps the speed.
 */
export const ENGINE_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000';

process.env.JE_MALLOC_CONF ??= ENGINE_MALLOC_CONF;
