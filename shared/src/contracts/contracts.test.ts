import { describe, expect, it } from 'vitest';
import { searchRequestSchema, unionColumns } from './index.ts';

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
});

describe('unionColumns', () => {
  it('unions column names in first-seen order, trimmed, without blanks', () => {
    expect(
      unionColumns([
        { columnNames: ['Title', 'Authors ', ''] },
        { columnNames: ['Authors', 'Year', ' Title'] },
      ]),
    ).toEqual(['Title', 'Authors', 'Year']);
  });
});
