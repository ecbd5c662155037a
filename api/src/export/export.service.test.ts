import { describe, expect, it } from 'vitest';
import { exportFilename } from './export.service.ts';

describe('export', () => {
  it('names the file from the custom name or the default, with the lower-cased extension', () => {
    expect(exportFilename('XLSX', 'my results', 'GENERAL')).toBe('my results.xlsx');
    expect(exportFilename('CSV', 'a/b:c.csv', 'GENERAL')).toBe('a_b_c.csv');
    expect(exportFilename('CSV', undefined, 'GENERAL')).toMatch(/^search_results_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exportFilename('XLSX', '  ', 'AUTHOR')).toMatch(
      /^authors_search_results_\d{4}-\d{2}-\d{2}\.xlsx$/,
    );
  });
});
