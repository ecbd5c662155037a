import { describe, expect, it } from 'vitest';
import { importSummary, searchRequestSchema, unionColumns, type ImportReport } from './index.ts';

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

describe('importSummary', () => {
  const report: ImportReport = {
    fileId: 'f',
    originalFilename: 'savedrecs.txt',
    format: 'csv',
    source: 'Web of Science tab-delimited',
    sheets: [],
    totalRows: 500,
    warnings: [],
    createdAt: '2026-11-26T00:00:00.000Z',
  };

  it('names the source, the records and how their authors were paired', () => {
    expect(
      importSummary({
        ...report,
        authors: {
          rows: 1_875,
          recordsWithEmails: 412,
          byName: 1_204,
          byPosition: 8,
          unmatched: 2,
          withoutEmail: 661,
          examples: [],
        },
      }),
    ).toBe(
      'Web of Science tab-delimited, 500 records, 412 with emails, 1,873 authors of whom 1,204 paired by name, 8 by position, 661 without email, 2 emails without an author',
    );
  });

  it('falls back to the format for a report written before the source was named', () => {
    const { source: _, ...older } = report;
    expect(importSummary({ ...older, totalRows: 1 })).toBe('CSV, 1 record');
  });
});
