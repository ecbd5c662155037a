/**
 * Purging the embedded engine's memory while heavy work runs (MemoryPurger, Storage.purgingMemory):
 * the engine takes `SYSTEM JEMALLOC PURGE`; on fake time, purges run only while work is under way,
 * a refused purge is reported once and never fails the work. Giving back the engine's code pages
 * (releaseEngineCode): the process's resident file pages fall and the engine still answers; the
 * purger's idle step runs once after the last work, never during it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryPurger, releaseEngineCode, residentFileBytes } from '@sift/clickhouse';
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

  it('runs its idle step once after the last work ends, and not while other work starts in time', async () => {
    let idles = 0;
    const purger = new MemoryPurger(async () => {}, undefined, INTERVAL, {
      afterMs: 4 * INTERVAL,
      run: () => idles++,
    });
    await purger.during(async () => {});
    await pass(2);
    const next = pending();
    const nextRun = purger.during(next.work); // starts before the idle step was due: it is put off
    await pass(10);
    expect(idles).toBe(0);
    next.finish();
    await nextRun;
    await pass(3);
    expect(idles).toBe(0);
    await pass(1);
    expect(idles).toBe(1);
    await pass(20);
    expect(idles).toBe(1);
  });

  it('reports what the idle step throws without stopping the purges', async () => {
    const errors: unknown[] = [];
    const purger = new MemoryPurger(
      async () => {},
      (e) => errors.push(e),
      INTERVAL,
      {
        afterMs: INTERVAL,
        run: () => {
          throw new Error('no pages');
        },
      },
    );
    await purger.during(async () => {});
    await pass(1);
    expect(errors.map(String)).toEqual(['Error: no pages']);
    const job = pending();
    const running = purger.during(job.work);
    await pass(2);
    job.finish();
    await running;
    expect(purger.purges).toBe(4);
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

/** Resident KB of the engine library's executable mapping (its code), from /proc/self/smaps. */
function residentEngineCodeKb(): number {
  let kb = 0;
  let inCode = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ (\S+) .*?(\S*)$/.exec(line);
    if (mapping) inCode = mapping[1] === 'r-xp' && mapping[2]!.endsWith('/libchdb.so');
    else if (inCode && line.startsWith('Rss:')) kb += Number(line.split(/\s+/)[1]);
  }
  return kb;
}

describe("giving back the engine's code pages", () => {
  it('lowers the resident file pages of the process, and the engine goes on answering', async () => {
    const client = temp.storage().client;
    const db = () => temp.storage().database;
    // Work that runs much of the engine's code: a table with a text index, an insert, a merge.
    await client.command({
      query: `CREATE TABLE ${db()}.code_pages (a String, INDEX t a TYPE text(tokenizer = splitByNonAlpha))
              ENGINE = MergeTree ORDER BY tuple()`,
    });
    for (let i = 0; i < 3; i++) {
      await client.command({
        query: `INSERT INTO ${db()}.code_pages SELECT concat('w', toString(number * ${i + 1})) FROM numbers(20000)`,
      });
    }
    await client.command({ query: `OPTIMIZE TABLE ${db()}.code_pages FINAL` });

    const codeBefore = residentEngineCodeKb();
    const release = releaseEngineCode();
    const codeAfter = residentEngineCodeKb();
    expect(codeBefore).toBeGreaterThan(1024); // the work ran engine code
    expect(codeAfter).toBeLessThan(codeBefore / 2); // its code pages went, not only its data
    expect(release.mappings).toBeGreaterThanOrEqual(2); // code and read-only data at least
    expect(release.mappedBytes).toBeGreaterThan(100 * 1024 * 1024);
    // The storage gave its pages back when it opened, so only what this work read in is left:
    // ~15 MB here. More than 4 MB falls (nothing would without the release).
    expect(release.residentFileBytesBefore - release.residentFileBytesAfter).toBeGreaterThan(4 * 1024 * 1024);
    expect(residentFileBytes()).toBeLessThan(release.residentFileBytesBefore);

    const count = await client.query({
      query: `SELECT count() AS n FROM ${db()}.code_pages WHERE hasToken(a, 'w3')`,
      format: 'JSONEachRow',
    });
    expect(await count.json()).toEqual([{ n: 2 }]); // 3 × 1 and 1 × 3
  });
});
