import { describe, expect, it } from 'vitest';
import { clampPage, FILES_PAGE_SIZE, pageCount, pageSlice, parseGoTo } from './paging';
import { keepExisting, pageSelection, withIds } from './selection';

describe('paging', () => {
  it('counts pages of 20 files, at least one', () => {
    expect(FILES_PAGE_SIZE).toBe(20);
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(201, 20)).toBe(11);
  });

  it('slices a zero-based page', () => {
    const items = Array.from({ length: 45 }, (_, i) => i);
    expect(pageSlice(items, 0, 20)).toEqual(items.slice(0, 20));
    expect(pageSlice(items, 2, 20)).toEqual([40, 41, 42, 43, 44]);
    expect(pageSlice(items, 3, 20)).toEqual([]);
  });

  it('moves a page back inside the list after it shrank', () => {
    expect(clampPage(5, 3)).toBe(2);
    expect(clampPage(-1, 3)).toBe(0);
    expect(clampPage(1, 3)).toBe(1);
  });

  it('reads the go-to box: whole numbers from 1 to the total, as zero-based pages', () => {
    expect(parseGoTo('1', 12)).toBe(0);
    expect(parseGoTo(' 12 ', 12)).toBe(11);
    for (const bad of ['0', '13', '', 'abc', '2.5', '-1', '1e1']) expect(parseGoTo(bad, 12)).toBeNull();
  });
});

describe('selection', () => {
  const page = ['a', 'b', 'c'];

  it('tells whether a page is wholly, partly or not selected', () => {
    expect(pageSelection(page, new Set())).toBe('none');
    expect(pageSelection(page, new Set(['b', 'x']))).toBe('some');
    expect(pageSelection(page, new Set(['a', 'b', 'c', 'x']))).toBe('all');
    expect(pageSelection([], new Set(['a']))).toBe('none');
  });

  it('selects and clears a page without touching other pages', () => {
    const other = new Set(['x']);
    const on = withIds(other, page, true);
    expect([...on].sort()).toEqual(['a', 'b', 'c', 'x']);
    expect([...withIds(on, page, false)]).toEqual(['x']);
    expect([...other]).toEqual(['x']); // not changed in place
  });

  it('drops ids that no longer exist and keeps the same set otherwise', () => {
    const selected = new Set(['a', 'gone']);
    expect([...keepExisting(selected, page)]).toEqual(['a']);
    const kept = new Set(['a']);
    expect(keepExisting(kept, page)).toBe(kept);
  });
});
