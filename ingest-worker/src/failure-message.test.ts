import { describe, expect, it } from 'vitest';
import {
  OUT_OF_MEMORY_MESSAGE,
  OUT_OF_SPACE_MESSAGE,
  RECORD_UNSEEN_MESSAGE,
  RecordNotReplicatedError,
  SERVER_ERROR_MESSAGE,
  serverFailureMessage,
} from './failure-message.ts';

describe('serverFailureMessage', () => {
  it('says the server ran out of memory, from the engine’s own error', () => {
    const engine = new Error(
      'Code: 241. DB::Exception: Memory limit (total) exceeded: would use 3.51 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 3.50 GiB. (MEMORY_LIMIT_EXCEEDED)',
    );
    expect(serverFailureMessage(new Error('Ingest failed', { cause: engine }))).toBe(OUT_OF_MEMORY_MESSAGE);
  });

  it('says the disk is full, from the engine or the file system', () => {
    expect(
      serverFailureMessage(
        new Error('Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)'),
      ),
    ).toBe(OUT_OF_SPACE_MESSAGE);
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(serverFailureMessage(enospc)).toBe(OUT_OF_SPACE_MESSAGE);
  });

  it("says the file's record never reached the worker's replica", () => {
    expect(serverFailureMessage(new RecordNotReplicatedError('no record after 30000 ms'))).toBe(
      RECORD_UNSEEN_MESSAGE,
    );
  });

  it('gives the general message for anything else', () => {
    expect(serverFailureMessage(new Error('Connection reset'))).toBe(SERVER_ERROR_MESSAGE);
    expect(serverFailureMessage('not an error')).toBe(SERVER_ERROR_MESSAGE);
  });
});
