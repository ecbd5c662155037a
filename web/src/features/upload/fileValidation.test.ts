import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../lib/format';
import { MB, hasAcceptedExtension, validateDroppedFiles, validateSelectedFiles } from './fileValidation';

const file = (name: string, size = 1024, type = '') => ({ name, size, type });

describe('hasAcceptedExtension', () => {
  it('accepts .xlsx, .xls and .csv in any case', () => {
    for (const name of ['a.xlsx', 'B.XLS', 'c.Csv', 'savedrecs.xls'])
      expect(hasAcceptedExtension(name)).toBe(true);
    for (const name of ['a.pdf', 'a.xlsx.exe', 'xlsx', 'a.xlsm'])
      expect(hasAcceptedExtension(name)).toBe(false);
  });
});

describe('validateSelectedFiles (file picker, 100 MB)', () => {
  it('reports an empty selection', () => {
    expect(validateSelectedFiles([]).errors).toEqual(['No files selected for upload']);
  });

  it('accepts by media type or extension and lists the invalid ones', () => {
    const result = validateSelectedFiles([
      file('data.XLSX'),
      file('export', 10, 'text/csv'),
      file('notes.pdf', 10, 'application/pdf'),
      file('huge.csv', 101 * MB),
    ]);
    expect(result.accepted.map((f) => f.name)).toEqual(['data.XLSX', 'export']);
    expect(result.errors).toEqual(['Invalid files (2): notes.pdf, huge.csv']);
  });

  it('says so when no file is valid', () => {
    const result = validateSelectedFiles([file('a.pdf')]);
    expect(result.accepted).toEqual([]);
    expect(result.errors).toEqual([
      'Invalid files (1): a.pdf',
      'No valid files selected. Please choose Excel (.xlsx, .xls) or CSV files under 100MB.',
    ]);
  });

  it('flags accepted files over 50 MB as large', () => {
    expect(
      validateSelectedFiles([file('big.xlsx', 60 * MB), file('small.xlsx')]).large.map((f) => f.name),
    ).toEqual(['big.xlsx']);
  });
});

describe('validateDroppedFiles (drag and drop, 500 MB)', () => {
  it('gives one message per rejected file, with the spec texts', () => {
    const result = validateDroppedFiles([
      file('ok.xls', 400 * MB),
      file('image.png', 10, 'image/png'),
      file('huge.xlsx', 501 * MB),
      file('plain', 10, 'text/csv'),
      // A .csv name alone is not enough on drop: its media type must be text/csv (spec section 4).
      file('untyped.csv', 10, ''),
      file('typed.CSV', 10, 'text/csv'),
    ]);
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.xls', 'plain', 'typed.CSV']);
    expect(result.errors).toEqual([
      'Invalid file type: image.png. Please upload Excel (.xlsx, .xls) or CSV files.',
      'File too large: huge.xlsx. Maximum size is 500MB.',
      'Invalid file type: untyped.csv. Please upload Excel (.xlsx, .xls) or CSV files.',
    ]);
  });

  it('reports an empty drop', () => {
    expect(validateDroppedFiles([]).errors).toEqual(['No files selected for upload']);
  });
});

describe('formatBytes', () => {
  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(60 * MB)).toBe('60.0 MB');
  });
});
