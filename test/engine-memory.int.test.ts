/**
 * Purging the embedded engine's memory while heavy work runs (MemoryPurger, Storage.purgingMemory):
 * the engine takes `SYSTEM JEMALLOC PURGE`, purges run only while work is under way, a refused
 * purge is reported once and never fails the work. Giving back the engine's code pages
 * (releaseEngineCode): the process's resident file pages fall and the engine still answers; the
 * purger's idle step runs once after the last work, never during it.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { MemoryPurger, releaseEngineCode, residentFileBytes } from '@sift/clickhouse';
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

  it('runs its idle step once after the last work ends, and not while other work starts in time', async () => {
    let idles = 0;
    const purger = new MemoryPurger(async () => {}, undefined, 20, { afterMs: 80, run: () => idles++ });
    await purger.during(() => sleep(10));
    await sleep(30);
    await purger.during(() => sleep(100)); // starts before the idle step was due: it is put off
    expect(idles).toBe(0);
    await vi.waitFor(() => expect(idles).toBe(1), { timeout: 5_000 });
    await sleep(200);
    expect(idles).toBe(1);
  });

  it('reports what the idle step throws without stopping the purges', async () => {
    const errors: unknown[] = [];
    const purger = new MemoryPurger(
      async () => {},
      (e) => errors.push(e),
      20,
      {
        afterMs: 10,
        run: () => {
          throw new Error('no pages');
        },
      },
    );
    await purger.during(() => sleep(50));
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
    expect(String(errors[0])).toContain('no pages');
    await purger.during(() => sleep(50));
    expect(purger.purges).toBeGreaterThanOrEqual(2);
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
