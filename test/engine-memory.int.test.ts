/**
 * Purging the embedded engine's memory while heavy work runs (MemoryPurger, Storage.purgingMemory):
 * the engine takes `SYSTEM JEMALLOC PURGE`, purges run only while work is under way, a refused
 * purge is reported once and never fails the work.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { MemoryPurger } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('engine_memory');

/** A purger of the test's engine, with the errors it reports. */
function enginePurger(query = 'SYSTEM JEMALLOC PURGE') {
  const errors: unknown[] = [];
  let calls = 0;
  const purger = new MemoryPurger(
    () => {
      calls++;
      return temp.storage().client.command({ query });
    },
    (e) => errors.push(e),
    20,
  );
  return { purger, errors, calls: () => calls };
}

describe('engine memory purging', () => {
  it('purges the engine repeatedly while work runs, and stops when it ends', async () => {
    const { purger, errors } = enginePurger();
    const value = await purger.during(async () => {
      await vi.waitFor(() => expect(purger.purges).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
      return 'done';
    });
    expect(value).toBe('done');
    expect(errors).toEqual([]);
    await sleep(50); // a purge under way when the work ended completes
    const after = purger.purges;
    await sleep(200); // ten intervals
    expect(purger.purges).toBe(after);
  });

  it('keeps purging while any of several overlapping pieces of work runs', async () => {
    const { purger } = enginePurger();
    let releaseLong!: () => void;
    const long = purger.during(() => new Promise<void>((resolve) => (releaseLong = resolve)));
    await purger.during(() => sleep(30));
    const atShortEnd = purger.purges;
    await vi.waitFor(() => expect(purger.purges).toBeGreaterThan(atShortEnd + 1), { timeout: 10_000 });
    releaseLong();
    await long;
  });

  it('reports a refused purge once and stops trying, without failing the work', async () => {
    const { purger, errors, calls } = enginePurger('SYSTEM JEMALLOC NO_SUCH_COMMAND');
    const value = await purger.during(async () => {
      await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
      await sleep(100); // five intervals
      return 42;
    });
    expect(value).toBe(42);
    expect(calls()).toBe(1);
    expect(String(errors[0])).toMatch(/syntax|JEMALLOC/i);
    await purger.during(() => sleep(100)); // later work does not try again
    expect(calls()).toBe(1);
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
