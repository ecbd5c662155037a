// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';
import { renderUi } from '../../../../test/render';
import { ResultsTable } from './ResultsTable';

const row = (rowNumber: number, cells: Record<string, string>): ResultRow => ({
  [ROW_META.fileId]: 'f1',
  [ROW_META.fileName]: 'wos.xls',
  [ROW_META.sheet]: 'savedrecs',
  [ROW_META.rowNumber]: rowNumber,
  ...cells,
});

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('ResultsTable', () => {
  it('shows File and Sheet first, then the chosen columns in order, blank where a row has no value', () => {
    renderUi(
      <ResultsTable
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Graphs', Authors: 'Smith, J' }), row(3, { Authors: 'Müller, K' })]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Search results' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['File', 'Sheet', 'Title', 'Authors']);
    expect(cellsOf(table)).toEqual([
      ['wos.xls', 'savedrecs', 'Graphs', 'Smith, J'],
      ['wos.xls', 'savedrecs', '', 'Müller, K'],
    ]);
  });

  it('leaves the source columns out for the Authors search, and keeps a long cell whole in its title', () => {
    const long = 'x'.repeat(2_000);
    renderUi(
      <ResultsTable
        caption="Authors"
        columns={['Abstract']}
        rows={[row(2, { Abstract: long })]}
        withSource={false}
      />,
    );
    const table = screen.getByRole('table', { name: 'Authors' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Abstract']);
    expect(within(table).getByTitle(long).textContent).toBe(long);
  });

  it('sorts by a column from its header, and says which column the rows are sorted by', async () => {
    const onSort = vi.fn();
    renderUi(
      <ResultsTable
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Graphs', Authors: 'Smith, J' })]}
        sort={{ column: 'Authors', order: 'desc' }}
        onSort={onSort}
      />,
    );
    const headers = within(screen.getByRole('table', { name: 'Search results' })).getAllByRole(
      'columnheader',
    );
    expect(headers.map((h) => [h.textContent, h.getAttribute('aria-sort')])).toEqual([
      ['File', null],
      ['Sheet', null],
      ['Title', 'none'],
      ['Authors', 'descending'],
    ]);
    await userEvent.click(within(headers[2]!).getByRole('button', { name: 'Title' }));
    expect(onSort).toHaveBeenCalledWith('Title');
  });

  it('marks what the search matched in the searched columns only, whatever its case', () => {
    renderUi(
      <ResultsTable
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Smith and smiths', Authors: 'Smith, J; Smithers, K' })]}
        highlights={{ terms: { Authors: 'SMITH' } }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Search results' });
    const marks = Array.from(table.querySelectorAll('mark')).map((m) => m.textContent);
    expect(marks).toEqual(['Smith', 'Smith']);
    expect(within(table).getByTitle('Smith, J; Smithers, K').textContent).toBe('Smith, J; Smithers, K');
  });

  it('marks accented spellings of a plain search, and only exact accents with matchAccents', () => {
    const rows = [row(2, { Authors: 'Müller, H; MULLER, A; Sørensen, K' })];
    const marksOf = (matchAccents: boolean) => {
      const { unmount } = renderUi(
        <ResultsTable
          caption="Results"
          columns={['Authors']}
          rows={rows}
          highlights={{ terms: { Authors: 'muller' }, matchAccents }}
        />,
      );
      const marks = Array.from(screen.getByRole('table').querySelectorAll('mark')).map((m) => m.textContent);
      unmount();
      return marks;
    };
    expect(marksOf(false)).toEqual(['Müller', 'MULLER']);
    expect(marksOf(true)).toEqual(['MULLER']);
  });
});
