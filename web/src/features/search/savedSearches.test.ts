import { describe, expect, it } from 'vitest';
import type { SavedQuery } from '@sift/shared/contracts';
import { fromSavedSearch, toSavedSearch } from './savedSearches';

describe('saved searches', () => {
  it('saves criteria, sort, accent matching and the file filter, and opens the same search on its first page', () => {
    const body = toSavedSearch(
      'Kowalski, sorted',
      'GENERAL',
      {
        searchCriteria: { Authors: 'kowalski' },
        page: 3,
        size: 20,
        sortBy: 'Title',
        sortOrder: 'desc',
        matchAccents: true,
      },
      { mode: 'exclude', fileIds: ['f1'] },
    );
    expect(body).toEqual({
      name: 'Kowalski, sorted',
      fileType: 'GENERAL',
      searchCriteria: { Authors: 'kowalski' },
      sortBy: 'Title',
      sortOrder: 'desc',
      matchAccents: true,
      excludedFileIds: ['f1'],
    });
    const saved: SavedQuery = { ...body, id: 'q1', createdAt: '2026-11-25T22:00:00Z' } as SavedQuery;
    expect(fromSavedSearch(saved)).toEqual({
      request: {
        searchCriteria: { Authors: 'kowalski' },
        page: 0,
        size: 20,
        sortBy: 'Title',
        sortOrder: 'desc',
        matchAccents: true,
      },
      filter: { mode: 'exclude', fileIds: ['f1'] },
      values: { Authors: 'kowalski' },
    });
  });

  it('leaves out what the search does not have', () => {
    const body = toSavedSearch(
      'All',
      'AUTHOR',
      { searchCriteria: {}, page: 0, size: 20 },
      { mode: 'include', fileIds: [] },
    );
    expect(body).toEqual({ name: 'All', fileType: 'AUTHOR', searchCriteria: {} });
    expect(fromSavedSearch({ ...body, id: 'q2', createdAt: '' } as SavedQuery).filter).toEqual({
      mode: 'include',
      fileIds: [],
    });
  });
});
