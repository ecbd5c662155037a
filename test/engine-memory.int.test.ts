/**
 * Purging the embedded engine's memory while heavy work runs (MemoryPurger, Storage.purgingMemory):
 * the engine takes `SYSTEM JEMALLOC PURGE`; on fake time, purges run only while work is under way,
 * a refused purge is reported once and never fails the work.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryPurger } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('engine_memory');

/** A purger on fake time whose purge succeeds (or, with `refuse`, is refused), counting its calls. */
function countingPurger(refuse?: Error) {
  const errors: unknown[] = [];
  let calls = 0;
  const purger = new MemoryPurger(
    async () => {
      calls++;
      if (refuse) throw refuse;
    },
    (e) => errors.push(e),
    INTERVAL,
  );
  return { purger, errors, calls: () => calls };
}

const INTERVAL = 20;
/** Lets fake time pass by `intervals` purge intervals, running what falls due on the way. */
const pass = (intervals: number) => vi.advanceTimersByTimeAsync(intervals * INTERVAL);

/** Work that runs until `finish` is called. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('engine memory purging', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('purges repeatedly while work runs, and stops when it ends', async () => {
    const { purger, errors, calls } = countingPurger();
    const job = pending();
    const running = purger.during(job.work);
    await pass(3);
    expect(calls()).toBe(4); // one at the start, one an interval
    job.finish();
    await running;
    await pass(10);
    expect(calls()).toBe(4);
    expect(purger.purges).toBe(4);
    expect(errors).toEqual([]);
  });

  it('keeps purging while any of several overlapping pieces of work runs', async () => {
    const { purger, calls } = countingPurger();
    const long = pending();
    const short = pending();
    const longRun = purger.during(long.work);
    const shortRun = purger.during(short.work);
    await pass(1);
    short.finish();
    await shortRun;
    const atShortEnd = calls();
    await pass(3);
    expect(calls()).toBe(atShortEnd + 3);
    long.finish();
    await longRun;
    await pass(3);
    expect(calls()).toBe(atShortEnd + 3);
  });

  it('reports a refused purge once and stops trying, without failing the work', async () => {
    const { purger, errors, calls } = countingPurger(new Error('refused'));
    const value = await purger.during(async () => {
      await pass(5);
      return 42;
    });
    expect(value).toBe(42);
    expect(calls()).toBe(1);
    expect(errors.map(String)).toEqual(['Error: refused']);
    const later = pending();
    const laterRun = purger.during(later.work);
    await pass(5); // later work does not try again
    later.finish();
    await laterRun;
    expect(calls()).toBe(1);
  });
});

describe('the engine under the purger', () => {
  it('takes SYSTEM JEMALLOC PURGE, and refuses an unknown command with an error to report', async () => {
    const client = temp.storage().client;
    await expect(client.command({ query: 'SYSTEM JEMALLOC PURGE' })).resolves.toBeDefined();
    await expect(client.command({ query: 'SYSTEM JEMALLOC NO_SUCH_COMMAND' })).rejects.toThrow(
      /syntax|JEMALLOC/i,
    );
  });

  it('Storage.purgingMemory resolves and rejects as its work does', async () => {
    const storage = temp.storage();
    await expect(storage.purgingMemory(async () => 'rows')).resolves.toBe('rows');
    await expect(
      storage.purgingMemory(async () => {
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    // The engine still answers after purges.
    await expect(storage.ping()).resolves.toBe(true);
  });
});
