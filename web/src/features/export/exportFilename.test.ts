import { describe, expect, it } from 'vitest';
import { datedFilename, exportDownloadName, normalizeCustomFilename } from './exportFilename';

describe('normalizeCustomFilename', () => {
  it('trims, drops a trailing extension of the chosen format, and treats blank as none', () => {
    expect(normalizeCustomFilename('  report ', 'XLSX')).toBe('report');
    expect(normalizeCustomFilename('report.XLSX', 'XLSX')).toBe('report');
    expect(normalizeCustomFilename('report.xlsx', 'CSV')).toBe('report.xlsx');
    expect(normalizeCustomFilename('   ', 'CSV')).toBeUndefined();
    expect(normalizeCustomFilename('.csv', 'CSV')).toBeUndefined();
  });
});

describe('exportDownloadName', () => {
  it("prefers the server's filename, then the custom name, then export.{ext}", () => {
    expect(exportDownloadName('search_results_2025-01-01.xlsx', 'mine', 'XLSX')).toBe(
      'search_results_2025-01-01.xlsx',
    );
    expect(exportDownloadName(null, 'mine', 'CSV')).toBe('mine.csv');
    expect(exportDownloadName(null, undefined, 'XLSX')).toBe('export.xlsx');
  });
});

describe('datedFilename', () => {
  it('appends the ISO date', () => {
    expect(datedFilename('authors_search_results_', new Date('2025-03-04T10:00:00Z'))).toBe(
      'authors_search_results_2025-03-04',
    );
  });
});
