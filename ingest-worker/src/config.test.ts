import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from './config.ts';

describe('loadWorkerConfig', () => {
  it('reads files two at a time unless WORKER_CONCURRENCY says otherwise', () => {
    expect(loadWorkerConfig({}).workerConcurrency).toBe(2);
    expect(loadWorkerConfig({ WORKER_CONCURRENCY: '6' }).workerConcurrency).toBe(6);
  });

  it('refuses a concurrency that is not a whole number of at least 1', () => {
    for (const bad of ['0', '-1', '1.5', 'many'])
      expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: bad })).toThrow(/WORKER_CONCURRENCY/);
  });
});
