import { describe, expect, it } from 'vitest';
import { exportFilename, neutralise } from './export.service.ts';

describe('export', () => {
  it('neutralises cells that a spreadsheet would run as formulas', () => {
    expect(neutralise('=HYPERLINK("http://x")')).toBe('\'=HYPERLINK("http://x")');
    expect(neutralise('+1+cmd|calc')).toBe("'+1+cmd|calc");
    expect(neutralise('-2+3')).toBe("'-2+3");
    expect(neutralise('\nx')).toBe("'\nx");
    expect(neutralise('\r=1')).toBe("'\r=1");
    expect(neutralise('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralise('\tx')).toBe("'\tx");
    expect(neutralise('Smith, J')).toBe('Smith, J');
    // Plain numbers stay numbers.
    for (const n of ['-2', '+1', '-0.5', '+3.25e-7', '-.5']) expect(neutralise(n)).toBe(n);
  });

  it('names the file from the custom name or the default, with the lower-cased extension', () => {
    expect(exportFilename('XLSX', 'my results', 'GENERAL')).toBe('my results.xlsx');
    expect(exportFilename('CSV', 'a/b:c.csv', 'GENERAL')).toBe('a_b_c.csv');
    expect(exportFilename('CSV', undefined, 'GENERAL')).toMatch(/^search_results_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exportFilename('XLSX', '  ', 'AUTHOR')).toMatch(
      /^authors_search_results_\d{4}-\d{2}-\d{2}\.xlsx$/,
    );
  });
});
