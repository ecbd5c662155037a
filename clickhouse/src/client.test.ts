import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { openClickHouse } from './client.ts';

describe('openClickHouse', () => {
  it("routes the client library's own error lines to the logger at debug, not to the console", async () => {
    const lines: { level: number; msg: string; module?: string; err?: unknown }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A loopback port nothing listens on.
    const client = openClickHouse({
      url: 'http://127.0.0.1:9',
      user: 'u',
      password: '',
      database: 'd',
      dataDir: '',
      logger,
    });
    try {
      await expect(client.command({ query: 'SELECT 1' })).rejects.toThrow();
      expect(consoleError).not.toHaveBeenCalled();
      const failed = lines.find((l) => l.err !== undefined);
      expect(failed).toMatchObject({ level: 20, msg: expect.stringMatching(/request error/) });
      // Nothing at error level (the library's warnings stay warnings).
      expect(lines.some((l) => l.level >= 50)).toBe(false);
    } finally {
      consoleError.mockRestore();
      await client.close();
    }
  });
});
