// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSearchStore } from './store';
import { useColumnSearchForm } from './useColumnSearchForm';

describe('useColumnSearchForm', () => {
  it('searches only the visible columns, and keeps a hidden column’s text', () => {
    const columns = { available: ['Authors', 'Title'], visible: ['Authors'] };
    useSearchStore.getState().update('AUTHOR', { values: { Authors: ' smith ', Title: 'snakes' } });
    const { result } = renderHook(() => useColumnSearchForm('AUTHOR', columns, { autoSearch: false }));
    expect(result.current.values).toEqual({ Authors: ' smith ' });
    expect(result.current.activeTerms).toBe(1);
    act(() => void result.current.submit());
    expect(useSearchStore.getState().screens.AUTHOR.request?.searchCriteria).toEqual({ Authors: 'smith' });
    expect(useSearchStore.getState().screens.AUTHOR.values.Title).toBe('snakes');
  });

  it('sorts by a clicked column: ascending, descending, then file order; a new search keeps it', () => {
    const columns = { available: ['Authors', 'Title'], visible: ['Authors', 'Title'] };
    useSearchStore.getState().update('GENERAL', {
      values: { Authors: 'smith' },
      request: { searchCriteria: {}, page: 3, size: 20 },
    });
    const { result } = renderHook(() => useColumnSearchForm('GENERAL', columns, { autoSearch: false }));
    const request = () => useSearchStore.getState().screens.GENERAL.request;
    act(() => result.current.sortBy('Title'));
    expect(request()).toMatchObject({ sortBy: 'Title', sortOrder: 'asc', page: 0 });
    act(() => result.current.sortBy('Title'));
    expect(request()).toMatchObject({ sortBy: 'Title', sortOrder: 'desc' });
    act(() => void result.current.submit());
    expect(request()).toEqual({
      searchCriteria: { Authors: 'smith' },
      page: 0,
      size: 20,
      sortBy: 'Title',
      sortOrder: 'desc',
    });
    act(() => result.current.sortBy('Title'));
    expect(request()).toEqual({ searchCriteria: { Authors: 'smith' }, page: 0, size: 20 });
    act(() => result.current.sortBy('Authors'));
    expect(request()).toMatchObject({ sortBy: 'Authors', sortOrder: 'asc' });
  });

  it('changes the rows per page at the page holding the first row shown, and a new search keeps it', () => {
    const columns = { available: ['Authors'], visible: ['Authors'] };
    useSearchStore.getState().update('GENERAL', {
      values: { Authors: 'smith' },
      request: { searchCriteria: { Authors: 'smith' }, page: 7, size: 20 },
    });
    const { result } = renderHook(() => useColumnSearchForm('GENERAL', columns, { autoSearch: false }));
    const request = () => useSearchStore.getState().screens.GENERAL.request;
    // Rows 141–160 shown: with 100 a page, row 141 is on the second page.
    act(() => result.current.setPageSize(100));
    expect(request()).toMatchObject({ size: 100, page: 1 });
    act(() => result.current.setPageSize(33));
    expect(request()).toMatchObject({ size: 20, page: 5 });
    act(() => result.current.setPageSize(1000));
    act(() => void result.current.submit());
    expect(request()).toMatchObject({ size: 1000, page: 0 });
    act(() => result.current.clear());
    expect(request()).toEqual({ searchCriteria: {}, page: 0, size: 1000 });
  });
});
