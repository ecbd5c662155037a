import { RESERVED_HEADERS } from '@sift/ingest-worker';
import { describe, expect, it } from 'vitest';
import { ROW_META, searchRequestSchema } from './contracts.ts';

describe('search request contract', () => {
  it('trims criteria and drops empty ones; page and size default to 0 and 20', () => {
    expect(
      searchRequestSchema.parse({ searchCriteria: { ' Authors ': ' smith ', Title: '  ', '': 'x' } }),
    ).toEqual({
      searchCriteria: { Authors: 'smith' },
      page: 0,
      size: 20,
    });
  });

  it('allows at most 25 files to include or exclude, with the spec’s messages', () => {
    const ids = Array.from({ length: 26 }, (_, i) => `f${i}`);
    expect(searchRequestSchema.safeParse({ fileIds: ids }).error?.issues[0]?.message).toBe(
      'Maximum of 25 files can be selected at once. Please deselect some files first.',
    );
    expect(searchRequestSchema.safeParse({ excludedFileIds: ids }).error?.issues[0]?.message).toBe(
      'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
    );
  });

  it('reserves the row metadata keys that ingest keeps headers away from', () => {
    expect(new Set(Object.values(ROW_META))).toEqual(RESERVED_HEADERS);
  });
});
