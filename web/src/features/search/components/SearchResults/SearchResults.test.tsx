// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ROW_META, type SearchResponse } from '@sift/shared/contracts';
import { ApiError } from '../../../../api/client';
import { renderUi } from '../../../../test/render';
import { SearchResults, type SearchResultsProps } from './SearchResults';

const page0: SearchResponse = {
  data: [
    {
      [ROW_META.fileId]: 'f1',
      [ROW_META.fileName]: 'wos.xls',
      [ROW_META.sheet]: 'savedrecs',
      [ROW_META.rowNumber]: 2,
      Title: 'Graphs',
    },
  ],
  totalRecords: 40,
  totalPages: 2,
  page: 0,
  size: 20,
  columns: ['Title'],
  searchAvailable: true,
  message: null,
};

const props = (over: Partial<SearchResultsProps>): SearchResultsProps => ({
  idle: false,
  loading: false,
  data: undefined,
  error: null,
  columns: ['Title'],
  withSource: true,
  caption: 'Search results',
  onPage: () => {},
  onRetry: () => {},
  ...over,
});

describe('SearchResults', () => {
  it('keeps the last page of rows and its pager beside the error when the next page fails', () => {
    const { rerender } = renderUi(<SearchResults {...props({ data: page0 })} />);
    expect(screen.getByRole('grid', { name: 'Search results' })).toBeTruthy();

    const failed = new ApiError(503, 'HTTP 503', { error: 'The search engine is busy.' });
    rerender(<SearchResults {...props({ error: failed })} />);
    expect(within(screen.getByRole('alert')).getByText('The search engine is busy.')).toBeTruthy();
    const table = screen.getByRole('grid', { name: 'Search results (last results shown)' });
    expect(within(table).getByText('Graphs')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
  });

  it('says above the rows what they lack when a database server cannot be reached', () => {
    const lacking = 'Some files are on a database server that cannot be reached right now.';
    const { rerender } = renderUi(<SearchResults {...props({ data: { ...page0, message: lacking } })} />);
    expect(within(screen.getByRole('status')).getByText(lacking)).toBeTruthy();
    expect(screen.getByRole('grid', { name: 'Search results' })).toBeTruthy();
    rerender(<SearchResults {...props({ data: page0 })} />);
    expect(screen.queryByText(lacking)).toBeNull();
  });

  it('shows the error alone when nothing was found before', () => {
    renderUi(<SearchResults {...props({ error: new ApiError('FETCH_ERROR', 'offline') })} />);
    expect(within(screen.getByRole('alert')).getByText('Search failed. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
  });
});
