import { describe, expect, it } from 'vitest';
import {
  GROUP_PAUSE_MS,
  MAX_SESSION_NAME_LENGTH,
  REQUEST_PAUSE_MS,
  planUploadSteps,
  uploadSessionName,
} from './uploadPacing';

const names = (n: number) => Array.from({ length: n }, (_, i) => `f${i + 1}.xls`);
const pacing = { batchSize: 2, maxFilesPerRequest: 25 };

describe('planUploadSteps', () => {
  it('sends one file at a time in groups of batchSize: 1 s between files, 5 s between groups', () => {
    expect(planUploadSteps(names(5), pacing)).toEqual([
      { files: ['f1.xls'], group: 0, pauseBeforeMs: 0 },
      { files: ['f2.xls'], group: 0, pauseBeforeMs: REQUEST_PAUSE_MS },
      { files: ['f3.xls'], group: 1, pauseBeforeMs: GROUP_PAUSE_MS },
      { files: ['f4.xls'], group: 1, pauseBeforeMs: REQUEST_PAUSE_MS },
      { files: ['f5.xls'], group: 2, pauseBeforeMs: GROUP_PAUSE_MS },
    ]);
    expect([GROUP_PAUSE_MS, REQUEST_PAUSE_MS]).toEqual([5_000, 1_000]);
  });

  it('waits for nothing before the first file', () => {
    expect(planUploadSteps(names(1), pacing)).toEqual([{ files: ['f1.xls'], group: 0, pauseBeforeMs: 0 }]);
    expect(planUploadSteps(names(3), { batchSize: 4 }).map((s) => s.pauseBeforeMs)).toEqual([
      0,
      REQUEST_PAUSE_MS,
      REQUEST_PAUSE_MS,
    ]);
  });

  it('falls back to groups of 2 when the pacing is malformed, and plans nothing for no files', () => {
    expect(planUploadSteps(names(3), { batchSize: 0 }).map((s) => s.group)).toEqual([0, 0, 1]);
    expect(planUploadSteps([], pacing)).toEqual([]);
  });
});

describe('uploadSessionName', () => {
  it('names the session after the first file, with +N more for the others', () => {
    expect(uploadSessionName(['wos.xls'])).toBe('wos.xls');
    expect(uploadSessionName(['wos.xls', 'b.csv', 'c.xlsx'])).toBe('wos.xls +2 more');
    expect(uploadSessionName([])).toBe('Upload');
  });

  it('stays within what the API accepts', () => {
    const name = uploadSessionName(['x'.repeat(300) + '.xls', 'b.csv']);
    expect(name.length).toBe(MAX_SESSION_NAME_LENGTH);
    expect(name.endsWith('… +1 more')).toBe(true);
  });
});
