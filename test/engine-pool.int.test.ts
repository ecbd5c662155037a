/**
 * The embedded engine's connection pool (clickhouse/src/pool.ts) and query parameters written into
 * the query text (inline-params.ts), against real chDB: hostile values come back exactly as sent,
 * a long query no longer holds up a short one, and unsupported parameter types still work through
 * the engine's own binding.
 */
import { expect, it } from 'vitest';
import { inlineQueryParams, PooledConnection } from '@sift/clickhouse';
import { useTempStorage } from './support/storage.ts';
import { waitFor } from './support/wait.ts';

const temp = useTempStorage('engine-pool');

const HOSTILE = [
  "it's",
  'back\\slash',
  "\\'",
  "'; DROP TABLE files; --",
  '{v:String}',
  'line\nbreak\ttab\r',
  'Müller MÜLLER 日本語 😀',
  '%_\\%',
  'nul\0inside',
  '',
];

it('returns every hostile string value exactly, inlined or bound alike', async () => {
  const client = temp.storage().client;
  for (const v of HOSTILE) {
    const text = inlineQueryParams('SELECT {v:String} AS v', { v });
    expect(text).not.toBeNull();
    expect(text).not.toContain('{v:String} AS');
    const rs = await client.query({
      query: 'SELECT {v:String} AS v',
      query_params: { v },
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ v }]);
  }
});

it('inlines integers and string arrays with their types, and nothing else', async () => {
  const client = temp.storage().client;
  const rs = await client.query({
    query: `SELECT toTypeName({n:UInt32}) AS t, {n:UInt32} + {big:UInt64} AS s, has({ids:Array(String)}, 'b') AS h,
              length({none:Array(String)}) AS e
            FROM numbers(10) LIMIT {limit:UInt64} OFFSET {offset:UInt64}`,
    query_params: { n: 7, big: '9000000000', ids: ['a', 'b', "c'"], none: [], limit: 2, offset: 3 },
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ t: string; s: number; h: number; e: number }>();
  expect(rows).toHaveLength(2);
  expect(rows[0]).toEqual({ t: 'UInt32', s: 9000000007, h: 1, e: 0 });

  // Values that do not fit, or types it does not know: left to the engine's binding.
  expect(inlineQueryParams('SELECT {n:UInt32}', { n: -1 })).toBeNull();
  expect(inlineQueryParams('SELECT {n:UInt32}', { n: 1.5 })).toBeNull();
  expect(inlineQueryParams('SELECT {d:DateTime}', { d: '2026-01-01 00:00:00' })).toBeNull();
  expect(inlineQueryParams('SELECT {a:Array(String)}', { a: [1] })).toBeNull();
  // A placeholder without a value stays for the engine to report.
  expect(inlineQueryParams('SELECT {x:String}, {y:String}', { y: 'z' })).toBe("SELECT {x:String}, 'z'");
  const dated = await client.query({
    query: 'SELECT toYear({d:DateTime}) AS y',
    query_params: { d: '2026-01-01 00:00:00' },
    format: 'JSONEachRow',
  });
  expect(await dated.json()).toEqual([{ y: 2026 }]);
});

it('inlines arrays of integers as one constant, for IN and NOT IN', async () => {
  const client = temp.storage().client;
  const many = Array.from({ length: 60_000 }, (_, i) => i * 2);
  const sql = `SELECT toUInt32(4) IN {rows:Array(UInt32)} AS hit, toUInt32(5) NOT IN {rows:Array(UInt32)} AS miss,
                      length({none:Array(UInt32)}) AS e, has({neg:Array(Int64)}, -3) AS n`;
  const params = { rows: many, none: [], neg: [-3, '7', 9n] };
  // Longer than the parser allows elements one by one (max_ast_elements 50,000).
  expect(inlineQueryParams(sql, params)).not.toContain('{rows:');
  const rs = await client.query({
    query: sql,
    query_params: params,
    format: 'JSONEachRow',
    clickhouse_settings: { max_query_size: '10000000' },
  });
  expect(await rs.json()).toEqual([{ hit: 1, miss: 1, e: 0, n: 1 }]);
  // A value that does not fit its type: left to the engine.
  expect(inlineQueryParams('SELECT {r:Array(UInt32)}', { r: [1, -1] })).toBeNull();
  expect(inlineQueryParams('SELECT {r:Array(UInt32)}', { r: [1.5] })).toBeNull();
});

it('runs a short query while a long one holds another connection', async () => {
  const client = temp.storage().client;
  // Seconds of work for one engine thread, with parameters (which chDB alone would serialise).
  const long = client.query({
    query: `SELECT count() AS n FROM numbers({rows:UInt64}) WHERE sipHash64(number) % {m:UInt32} = 1`,
    query_params: { rows: 60_000_000, m: 7 },
    clickhouse_settings: { max_threads: 1 },
    format: 'JSONEachRow',
  });
  let longDone = false;
  void long.then(() => (longDone = true));
  // Wait until the long query is running (the engine lists it), so the short one comes second.
  await waitFor(
    async () => {
      const rs = await client.query({
        query: `SELECT count() AS n FROM system.processes WHERE position(query, 'sipHash64') > 0 AND position(query, 'system.processes') = 0`,
        format: 'JSONEachRow',
      });
      return Number((await rs.json<{ n: number }>())[0]!.n);
    },
    (running) => running > 0,
    { what: 'the long query to start' },
  );
  const short = await client.query({
    query: 'SELECT {v:String} AS v',
    query_params: { v: 'x' },
    format: 'JSONEachRow',
  });
  expect(await short.json()).toEqual([{ v: 'x' }]);
  // The short answer came back while the long query was still running.
  expect(longDone).toBe(false);
  expect(((await (await long).json()) as { n: number }[])[0]!.n).toBeGreaterThan(0);
});

it('spreads calls over the connections with the fewest in flight', async () => {
  const gate: (() => void)[] = [];
  const fake = (id: number) =>
    ({
      query: () => new Promise((resolve) => gate.push(() => resolve({ id } as never))),
      close: async () => {},
    }) as unknown as ConstructorParameters<typeof PooledConnection>[0][number];
  const pool = new PooledConnection([fake(0), fake(1), fake(2)]);
  const calls = [0, 1, 2, 3].map(() => pool.query({ query: 'SELECT 1' } as never));
  expect(pool.inFlight).toEqual([2, 1, 1]);
  // A connection's calls run one after another: the fourth starts once the first has answered.
  await expect.poll(() => gate.length).toBe(3);
  gate.splice(0).forEach((open) => open());
  await expect.poll(() => gate.length).toBe(1);
  gate.splice(0).forEach((open) => open());
  const ids = (await Promise.all(calls)).map((r) => (r as unknown as { id: number }).id);
  expect(ids).toEqual([0, 1, 2, 0]);
  expect(pool.inFlight).toEqual([0, 0, 0]);
});

it('closes a connection only once the calls given to it have answered', async () => {
  const gate: (() => void)[] = [];
  const events: string[] = [];
  const connection = {
    query: () =>
      new Promise((resolve) =>
        gate.push(() => {
          events.push('answered');
          resolve({} as never);
        }),
      ),
    close: async () => {
      events.push('closed');
    },
  } as unknown as ConstructorParameters<typeof PooledConnection>[0][number];
  const pool = new PooledConnection([connection]);
  const running = pool.query({ query: 'SELECT 1' } as never);
  await expect.poll(() => gate.length).toBe(1);
  const closing = pool.close();
  // The call is still running: nothing is closed under it.
  await new Promise((resolve) => setImmediate(resolve));
  expect(events).toEqual([]);
  gate.splice(0).forEach((open) => open());
  await Promise.all([running, closing]);
  expect(events).toEqual(['answered', 'closed']);
});

it("keeps a call's settings to that call: a later query on the same connection runs with the defaults", async () => {
  const client = temp.storage().client;
  const settingsNow = async () =>
    (
      await (
        await client.query({
          query: "SELECT getSetting('max_threads') AS threads, getSetting('max_rows_to_read') AS rows",
          format: 'JSONEachRow',
        })
      ).json<{ threads: number; rows: number }>()
    )[0]!;
  const defaults = await settingsNow();
  // A bounded read, as a suggestion query makes: stop after 10 rows and answer from those.
  const bounded = await client.query({
    query: 'SELECT count() AS n FROM numbers(1000)',
    format: 'JSONEachRow',
    clickhouse_settings: {
      max_threads: 1,
      max_block_size: '5',
      max_rows_to_read: '10',
      read_overflow_mode: 'break',
    },
  });
  expect(Number((await bounded.json<{ n: number }>())[0]!.n)).toBeLessThan(1000);
  // Calls one after another go to the same (idle) connection: none may inherit the bounds.
  for (let i = 0; i < 3; i++) {
    const rs = await client.query({ query: 'SELECT count() AS n FROM numbers(1000)', format: 'JSONEachRow' });
    expect(Number((await rs.json<{ n: number }>())[0]!.n)).toBe(1000);
    expect(await settingsNow()).toEqual(defaults);
  }
  // String values arrive exactly, quotes and backslashes included.
  for (const d of ["'", '\\', '\t']) {
    const own = await client.query({
      query: "SELECT getSetting('format_csv_delimiter') AS d",
      format: 'JSONEachRow',
      clickhouse_settings: { format_csv_delimiter: d },
    });
    expect(await own.json()).toEqual([{ d }]);
  }
  // A setting with a string value, and a command, are kept to their call just the same.
  await client.command({ query: 'SELECT 1', clickhouse_settings: { format_csv_delimiter: ';' } });
  const rs = await client.query({
    query: "SELECT getSetting('format_csv_delimiter') AS d",
    format: 'JSONEachRow',
  });
  expect(await rs.json()).toEqual([{ d: ',' }]);
});
