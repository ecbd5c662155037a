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
});
