import { describe, expect, it } from 'vitest';
import {
  filteredFiles,
  filterScope,
  nearLimit,
  NO_FILE_FILTER,
  switchMode,
  toggleFile,
  type FileFilter,
} from './fileFilter';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);

describe('file filter (spec sections 4 and 5)', () => {
  it('toggles files in and out', () => {
    const one = toggleFile(NO_FILE_FILTER, 'a').filter;
    expect(one.fileIds).toEqual(['a']);
    expect(toggleFile(one, 'a').filter.fileIds).toEqual([]);
  });

  it('refuses a 26th file with the message of the mode', () => {
    const included: FileFilter = { mode: 'include', fileIds: ids(25) };
    const refused = toggleFile(included, 'x');
    expect(refused.filter).toBe(included);
    expect(refused.error).toBe(
      'Maximum of 25 files can be selected at once. Please deselect some files first.',
    );
    const excluded: FileFilter = { mode: 'exclude', fileIds: ids(25) };
    expect(toggleFile(excluded, 'x').error).toBe(
      'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
    );
    // Removing still works at the limit.
    expect(toggleFile(included, 'f0').filter.fileIds).toHaveLength(24);
  });

  it('warns from 20 files', () => {
    expect(nearLimit({ mode: 'include', fileIds: ids(19) })).toBe(false);
    expect(nearLimit({ mode: 'exclude', fileIds: ids(20) })).toBe(true);
  });

  it('clears the list when the mode switches', () => {
    const included: FileFilter = { mode: 'include', fileIds: ['a'] };
    expect(switchMode(included, 'exclude')).toEqual({ mode: 'exclude', fileIds: [] });
    expect(switchMode(included, 'include')).toBe(included);
  });

  it('sends fileIds or excludedFileIds, never both, and nothing without files', () => {
    expect(filterScope(NO_FILE_FILTER)).toEqual({});
    expect(filterScope({ mode: 'include', fileIds: ['a'] })).toEqual({ fileIds: ['a'] });
    expect(filterScope({ mode: 'exclude', fileIds: ['a'] })).toEqual({ excludedFileIds: ['a'] });
  });

  it('leaves the included files, or all but the excluded ones', () => {
    const files = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(filteredFiles(files, NO_FILE_FILTER)).toEqual(files);
    expect(filteredFiles(files, { mode: 'include', fileIds: ['b'] })).toEqual([{ id: 'b' }]);
    expect(filteredFiles(files, { mode: 'exclude', fileIds: ['b'] })).toEqual([{ id: 'a' }, { id: 'c' }]);
  });
});
