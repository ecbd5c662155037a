import { describe, expect, it } from 'vitest';
import { settingsFor } from './pool.ts';

const call = (settings: Record<string, string | number>) => ({
  query: 'SELECT 1',
  clickhouse_settings: settings,
});

describe('settingsFor', () => {
  it('SETs a setting once per connection, again only when its value changes, and resets it when dropped', () => {
    const first = settingsFor(call({ max_threads: 1, date_time_input_format: 'best_effort' }), new Map());
    expect(first.params.query).toBe(
      "SET max_threads = 1; SET date_time_input_format = 'best_effort'; SELECT 1",
    );
    expect(first.params.clickhouse_settings).toEqual({});

    const same = settingsFor(call({ max_threads: 1, date_time_input_format: 'best_effort' }), first.applied);
    expect(same.params.query).toBe('SELECT 1');
    expect(same.params.clickhouse_settings).toEqual({});

    const changed = settingsFor(
      call({ max_threads: 2, date_time_input_format: 'best_effort' }),
      same.applied,
    );
    expect(changed.params.query).toBe('SET max_threads = 2; SELECT 1');

    const dropped = settingsFor(call({ date_time_input_format: 'best_effort' }), changed.applied);
    expect(dropped.params.query).toBe('SET max_threads = DEFAULT; SELECT 1');
    expect([...dropped.applied.keys()]).toEqual(['date_time_input_format']);
  });

  it('passes the HTTP-layer settings through and refuses a setting name that is not an identifier', () => {
    const sent = settingsFor(call({ wait_end_of_query: 1, max_threads: 1 }), new Map([['max_threads', '1']]));
    expect(sent.params.query).toBe('SELECT 1');
    expect(sent.params.clickhouse_settings).toEqual({ wait_end_of_query: 1 });
    expect(() => settingsFor(call({ 'x; DROP': 1 }), new Map())).toThrow('Invalid setting name');
  });
});
