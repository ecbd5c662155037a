import { describe, expect, it, vi } from 'vitest';
import type { FileRecord, UploadPacing, UploadSessionSummary } from '@sift/shared/contracts';
import { ApiError } from '../../api/client';
import { runUpload, type UploadRunProgress, type UploadTransport } from './uploadRun';

interface FakeFile {
  name: string;
}

const files = (...names: string[]): FakeFile[] => names.map((name) => ({ name }));

function record(name: string): FileRecord {
  return { id: `id-${name}`, originalFilename: name, status: 'PROCESSING' } as FileRecord;
}

function sessionSummary(id: string, finalized: boolean): UploadSessionSummary {
  return {
    session: {
      id,
      sessionName: id,
      totalFiles: 0,
      completedFiles: 0,
      failedFiles: 0,
      progressPercentage: 0,
      isActive: true,
      isCompleted: false,
      finalized,
      createdAt: '2025-01-01T00:00:00.000Z',
    },
    files: [],
  };
}

/** A transport recording every call in order; `batch` decides each batch's answer. */
function fakeTransport(
  batch: (names: string[], call: number) => Promise<FileRecord[]> = async (names) => names.map(record),
  pacing: () => Promise<UploadPacing> = async () => ({
    batchSize: 2,
    maxFilesPerRequest: 25,
    maxFileSizeBytes: 1,
  }),
) {
  const calls: string[] = [];
  let batches = 0;
  const transport: UploadTransport<FakeFile> = {
    pacing: () => {
      calls.push('pacing');
      return pacing();
    },
    createSession: async (name, expectedFiles) => {
      calls.push(`create ${name} (${expectedFiles} files)`);
      return sessionSummary('s1', false);
    },
    uploadBatch: async (sessionId, batchFiles) => {
      const names = batchFiles.map((f) => f.name);
      calls.push(`batch ${sessionId} ${names.join(',')}`);
      batches += 1;
      return { files: await batch(names, batches), sessionId };
    },
    finalize: async (sessionId) => {
      calls.push(`finalize ${sessionId}`);
      return sessionSummary(sessionId, true);
    },
  };
  return { transport, calls };
}

/** Records waits into the same log, so their place between calls is checked too. */
function recordingSleep(calls: string[]) {
  return vi.fn(async (ms: number) => {
    calls.push(`wait ${ms}`);
  });
}

describe('runUpload', () => {
  it('uploads a selection into one session, a file at a time in paced groups of 2, then finalizes it', async () => {
    const { transport, calls } = fakeTransport();
    const progress: UploadRunProgress[] = [];
    const result = await runUpload(files('a.xls', 'b.xls', 'c.csv'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
      now: () => 0,
      onProgress: (p) => progress.push(p),
    });
    expect(calls).toEqual([
      'pacing',
      'create a.xls +2 more (3 files)',
      'batch s1 a.xls',
      'wait 1000',
      'batch s1 b.xls',
      'wait 5000',
      'batch s1 c.csv',
      'finalize s1',
    ]);
    expect(result.accepted.map((f) => f.originalFilename)).toEqual(['a.xls', 'b.xls', 'c.csv']);
    expect(result.failedRequests).toEqual([]);
    expect(result.summary?.session.finalized).toBe(true);
    expect(progress.at(-1)).toEqual({ sessionId: 's1', sentFiles: 3, totalFiles: 3, nextRequestAt: null });
    expect(progress.some((p) => p.nextRequestAt === 5_000)).toBe(true);
  });

  it('retries a batch on 503 with 1 s and 2 s backoff', async () => {
    let attempts = 0;
    const { transport, calls } = fakeTransport(async (names) => {
      attempts += 1;
      if (attempts < 3) throw new ApiError(503, 'queue down');
      return names.map(record);
    });
    const result = await runUpload(files('a.xls'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    expect(calls).toEqual([
      'pacing',
      'create a.xls (1 files)',
      'batch s1 a.xls',
      'wait 1000',
      'batch s1 a.xls',
      'wait 2000',
      'batch s1 a.xls',
      'finalize s1',
    ]);
    expect(result.accepted).toHaveLength(1);
  });

  it('reports a batch that keeps failing, after its retries and the retry queue, and goes on with the next group', async () => {
    const { transport, calls } = fakeTransport(async (names, call) => {
      if (names.includes('b.xls')) throw new ApiError(call < 3 ? 'FETCH_ERROR' : 500, 'down');
      return names.map(record);
    });
    const result = await runUpload(files('a.xls', 'b.xls', 'c.csv'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    // 3 tries, the next group (5 s + 2 s for the recent failure), then 3 more from the retry queue.
    expect(calls.filter((c) => c.startsWith('batch') || c === 'wait 7000')).toEqual([
      'batch s1 a.xls',
      'batch s1 b.xls',
      'batch s1 b.xls',
      'batch s1 b.xls',
      'wait 7000',
      'batch s1 c.csv',
      'batch s1 b.xls',
      'batch s1 b.xls',
      'batch s1 b.xls',
    ]);
    expect(result.failedRequests.map((r) => r.files.map((f) => f.name))).toEqual([['b.xls']]);
    expect(result.accepted.map((f) => f.originalFilename)).toEqual(['a.xls', 'c.csv']);
    expect(calls.at(-1)).toBe('finalize s1');
  });

  it('sends a request again from the retry queue after the other groups, and it can succeed there', async () => {
    let aTries = 0;
    const { transport, calls } = fakeTransport(async (names) => {
      if (names.includes('a') && ++aTries <= 3) throw new ApiError(503, 'queue down');
      return names.map(record);
    });
    const result = await runUpload(files('a', 'b', 'c'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    expect(calls.filter((c) => c.startsWith('batch'))).toEqual([
      'batch s1 a',
      'batch s1 a',
      'batch s1 a',
      'batch s1 b',
      'batch s1 c',
      'batch s1 a',
    ]);
    expect(result.failedRequests).toEqual([]);
    expect(result.accepted.map((f) => f.originalFilename).sort()).toEqual(['a', 'b', 'c']);
  });

  it('pauses 10 s after 5 failed requests in a row (circuit breaker)', async () => {
    const { transport, calls } = fakeTransport(async () => {
      throw new ApiError('FETCH_ERROR', 'offline');
    });
    const names = Array.from({ length: 12 }, (_, i) => `f${i}`);
    const result = await runUpload(files(...names), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    const waits = calls.filter((c) => c.startsWith('wait') && !['wait 1000', 'wait 2000'].includes(c));
    // One file a request, two a group: a group's first file waits 5 s plus 2 s per failure so far
    // (9 s, 13 s); the 6th finds the breaker open after 5 failures (1 s plus its 10 s), and counting
    // starts again (7 s, 11 s, then open again: 15 s); in the retry queue it opens twice more.
    expect(waits.slice(0, 6)).toEqual([
      'wait 9000',
      'wait 13000',
      'wait 11000',
      'wait 7000',
      'wait 11000',
      'wait 15000',
    ]);
    expect(waits).toContain('wait 10000');
    expect(result.failedRequests.flatMap((r) => r.files.map((f) => f.name)).sort()).toEqual(
      [...names].sort(),
    );
  });

  it('does not retry a 4xx answer', async () => {
    const { transport, calls } = fakeTransport(async () => {
      throw new ApiError(413, 'too large', { error: 'File too large. Maximum size is 1MB.' });
    });
    const result = await runUpload(files('big.xlsx'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    expect(calls).toEqual(['pacing', 'create big.xlsx (1 files)', 'batch s1 big.xlsx', 'finalize s1']);
    expect(result.failedRequests).toHaveLength(1);
  });

  it('stops sending when the session is gone, and fails the rest', async () => {
    const { transport, calls } = fakeTransport(async () => {
      throw new ApiError(409, 'finalized');
    });
    const result = await runUpload(files('a', 'b', 'c', 'd', 'e'), (f) => f.name, transport, {
      sleep: recordingSleep(calls),
    });
    expect(calls.filter((c) => c.startsWith('batch'))).toEqual(['batch s1 a']);
    expect(result.failedRequests.flatMap((r) => r.files.map((f) => f.name))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it("uses the spec's pacing when the server's cannot be read", async () => {
    const { transport, calls } = fakeTransport(undefined, async () => {
      throw new ApiError(404, 'missing');
    });
    await runUpload(files('a', 'b', 'c'), (f) => f.name, transport, { sleep: recordingSleep(calls) });
    expect(calls.filter((c) => c.startsWith('batch') || c.startsWith('wait'))).toEqual([
      'batch s1 a',
      'wait 1000',
      'batch s1 b',
      'wait 5000',
      'batch s1 c',
    ]);
  });

  it('rejects when the session cannot be created, and reports a failed finalize', async () => {
    const broken = fakeTransport();
    broken.transport.createSession = async () => {
      throw new ApiError(400, 'bad name');
    };
    await expect(runUpload(files('a'), (f) => f.name, broken.transport)).rejects.toMatchObject({
      status: 400,
    });

    const unfinished = fakeTransport();
    unfinished.transport.finalize = async () => {
      throw new ApiError(404, 'gone');
    };
    const result = await runUpload(files('a'), (f) => f.name, unfinished.transport);
    expect(result.summary).toBeNull();
    expect(result.finalizeError).toMatchObject({ status: 404 });
    expect(result.accepted).toHaveLength(1);
  });
});
