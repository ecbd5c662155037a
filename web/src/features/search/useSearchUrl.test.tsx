// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { act, cleanup, renderHook } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_FILE_FILTER } from './fileFilter';
import { useSearchStore } from './store';
import { useSearchUrl } from './useSearchUrl';

const wrapper =
  (url: string) =>
  ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;

/** The hook under test, with the router's location and navigation to drive it. */
function useScreen() {
  useSearchUrl('GENERAL');
  return { location: useLocation(), navigate: useNavigate() };
}

const screen = () => useSearchStore.getState().screens.GENERAL;

// Each test's screen goes with it: a screen left mounted follows the next test's store.
afterEach(() => cleanup());

beforeEach(() => {
  useSearchStore.getState().update('GENERAL', {
    values: {},
    request: null,
    autoSearched: false,
    hidden: [],
    filter: NO_FILE_FILTER,
  });
});

describe('useSearchUrl', () => {
  it('runs the search a link names, with its text in the inputs', () => {
    renderHook(useScreen, { wrapper: wrapper('/search?q.Name=ada&sort=City&page=2&include=f1') });
    expect(screen()).toMatchObject({
      values: { Name: 'ada' },
      request: { searchCriteria: { Name: 'ada' }, page: 1, sortBy: 'City', sortOrder: 'asc' },
      filter: { mode: 'include', fileIds: ['f1'] },
      autoSearched: true,
    });
  });

  it('writes the search a bare URL opens with, then one history entry a new search; Back returns', () => {
    useSearchStore
      .getState()
      .update('GENERAL', { request: { searchCriteria: { Name: 'ada' }, page: 0, size: 20 } });
    const { result } = renderHook(useScreen, { wrapper: wrapper('/search') });
    expect(result.current.location.search).toBe('?q.Name=ada');

    act(() =>
      useSearchStore
        .getState()
        .update('GENERAL', { request: { searchCriteria: { Name: 'bob' }, page: 0, size: 20 } }),
    );
    expect(result.current.location.search).toBe('?q.Name=bob');
    act(() => useSearchStore.getState().update('GENERAL', { hidden: ['City'] }));
    expect(result.current.location.search).toBe('?q.Name=bob&hide=City');

    act(() => void result.current.navigate(-1));
    expect(result.current.location.search).toBe('?q.Name=ada');
    expect(screen().request?.searchCriteria).toEqual({ Name: 'ada' });
    expect(screen().values).toEqual({ Name: 'ada' });
    expect(screen().hidden).toEqual([]);
  });

  it('follows the URL when the screen has no search (it lost its state), never wiping the entry', () => {
    const { result } = renderHook(useScreen, { wrapper: wrapper('/search?sort=Name&order=desc&page=2') });
    expect(screen().request).toMatchObject({ page: 1, sortBy: 'Name', sortOrder: 'desc' });
    act(() => useSearchStore.getState().update('GENERAL', { request: null, autoSearched: false }));
    expect(result.current.location.search).toBe('?sort=Name&order=desc&page=2');
    expect(screen().request).toMatchObject({ page: 1, sortBy: 'Name', sortOrder: 'desc' });
  });
});
