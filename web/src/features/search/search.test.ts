import { describe, expect, it } from 'vitest';
import type { FileRecord } from '@sift/shared/contracts';
import { buildCriteria, cellText, resultsSummary, searchableFiles } from './search';

const record = (over: Partial<FileRecord>): FileRecord => ({
  id: 'f',
  originalFilename: 'f.xlsx',
  filename: 'x',
  fileType: 'GENERAL',
  status: 'PROCESSED',
  totalRows: 1,
  rowCount: 1,
  totalColumns: 1,
  columnNames: [],
  sheetNames: ['Sheet1'],
  uploadDate: '2025-01-01T00:00:00Z',
  sizeBytes: 1,
  errorMessage: null,
  sourceFileId: null,
  ...over,
});

describe('searchableFiles', () => {
  it('keeps PROCESSED files of the requested type only', () => {
    const files = [
      record({ id: 'a' }),
      record({ id: 'b', status: 'PROCESSING' }),
      record({ id: 'c', fileType: 'AUTHOR' }),
      record({ id: 'd', status: 'FAILED' }),
    ];
    expect(searchableFiles(files, 'GENERAL').map((f) => f.id)).toEqual(['a']);
    expect(searchableFiles(files, 'AUTHOR').map((f) => f.id)).toEqual(['c']);
    expect(searchableFiles(undefined, 'GENERAL')).toEqual([]);
  });
});

describe('buildCriteria', () => {
  it('trims text and drops empty entries', () => {
    expect(buildCriteria({ Title: '  graph ', Authors: '   ', ' Year ': '2020', '': 'x' })).toEqual({
      Title: 'graph',
      Year: '2020',
    });
  });
});

describe('resultsSummary', () => {
  it('counts all results when they fit on one page, else gives the range', () => {
    expect(resultsSummary(0, 20, 7)).toBe('Showing 7 results');
    expect(resultsSummary(0, 20, 1)).toBe('Showing 1 result');
    expect(resultsSummary(0, 20, 45)).toBe('Showing 1 to 20 of 45 results');
    expect(resultsSummary(2, 20, 45)).toBe('Showing 41 to 45 of 45 results');
  });
});

describe('cellText', () => {
  it('shows missing cells as blank and numbers as text', () => {
    expect(cellText({ a: 1 }, 'a')).toBe('1');
    expect(cellText({ a: 1 }, 'b')).toBe('');
  });
});
