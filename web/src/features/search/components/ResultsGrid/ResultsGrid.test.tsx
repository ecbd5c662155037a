// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';
import { renderUi } from '../../../../test/render';
import { ResultsGrid } from './ResultsGrid';

const row = (rowNumber: number, cells: Record<string, string>): ResultRow => ({
  [ROW_META.fileId]: 'f1',
  [ROW_META.fileName]: 'wos.xls',
  [ROW_META.sheet]: 'savedrecs',
  [ROW_META.rowNumber]: rowNumber,
  ...cells,
});

const headersOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    );

describe('ResultsGrid', () => {
  it('shows File and Sheet first, then the chosen columns in order, blank where a row has no value', () => {
    renderUi(
      <ResultsGrid
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Graphs', Authors: 'Smith, J' }), row(3, { Authors: 'Müller, K' })]}
      />,
    );
    const table = screen.getByRole('grid', { name: 'Search results' });
    expect(headersOf(table)).toEqual(['File', 'Sheet', 'Title', 'Authors']);
    expect(cellsOf(table)).toEqual([
      ['wos.xls', 'savedrecs', 'Graphs', 'Smith, J'],
      ['wos.xls', 'savedrecs', '', 'Müller, K'],
    ]);
  });

  it('leaves the source columns out for the Authors search, and keeps a long cell whole in its title', () => {
    const long = 'x'.repeat(2_000);
    renderUi(
      <ResultsGrid
        caption="Authors"
        columns={['Abstract']}
        rows={[row(2, { Abstract: long })]}
        withSource={false}
      />,
    );
    const table = screen.getByRole('grid', { name: 'Authors' });
    expect(headersOf(table)).toEqual(['Abstract']);
    expect(within(table).getByTitle(long).textContent).toBe(long);
  });

  it('sorts by a column from its header, and says which column the rows are sorted by', async () => {
    const onSort = vi.fn();
    renderUi(
      <ResultsGrid
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Graphs', Authors: 'Smith, J' })]}
        sort={{ column: 'Authors', order: 'desc' }}
        onSort={onSort}
      />,
    );
    const headers = within(screen.getByRole('grid', { name: 'Search results' })).getAllByRole('columnheader');
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
      <ResultsGrid
        caption="Search results"
        columns={['Title', 'Authors']}
        rows={[row(2, { Title: 'Smith and smiths', Authors: 'Smith, J; Smithers, K' })]}
        highlights={{ terms: { Authors: 'SMITH' } }}
      />,
    );
    const table = screen.getByRole('grid', { name: 'Search results' });
    const marks = Array.from(table.querySelectorAll('mark')).map((m) => m.textContent);
    expect(marks).toEqual(['Smith', 'Smith']);
    expect(within(table).getByTitle('Smith, J; Smithers, K').textContent).toBe('Smith, J; Smithers, K');
  });

  it('marks accented spellings of a plain search, and only exact accents with matchAccents', () => {
    const rows = [row(2, { Authors: 'Müller, H; MULLER, A; Sørensen, K' })];
    const marksOf = (matchAccents: boolean) => {
      const { unmount } = renderUi(
        <ResultsGrid
          caption="Results"
          columns={['Authors']}
          rows={rows}
          highlights={{ terms: { Authors: 'muller' }, matchAccents }}
        />,
      );
      const marks = Array.from(screen.getByRole('grid').querySelectorAll('mark')).map((m) => m.textContent);
      unmount();
      return marks;
    };
    expect(marksOf(false)).toEqual(['Müller', 'MULLER']);
    expect(marksOf(true)).toEqual(['MULLER']);
  });

  it('draws only the rows and columns in view of a 1,000-row page of 120 columns, and says how many there are', () => {
    const columns = Array.from({ length: 120 }, (_, i) => `Column ${i + 1}`);
    const rows = Array.from({ length: 1_000 }, (_, i) =>
      row(i + 2, Object.fromEntries(columns.map((c) => [c, `${c} of row ${i + 1}`]))),
    );
    renderUi(<ResultsGrid caption="Search results" columns={columns} rows={rows} />);
    const table = screen.getByRole('grid', { name: 'Search results' });
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    expect(table.getAttribute('aria-colcount')).toBe('122');
    const drawn = within(table).getAllByRole('row');
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(100);
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.length).toBeGreaterThan(3);
    expect(headers.length).toBeLessThan(30);
    // The File column is pinned: always drawn, first.
    expect(headers[0]!.textContent).toBe('File');
    expect(drawn[1]!.getAttribute('aria-rowindex')).toBe('2');
  });

  it('resizes a column from the keyboard: Shift+arrows on its header, the grid being one Tab stop', async () => {
    renderUi(
      <ResultsGrid caption="Search results" columns={['Title']} rows={[row(2, { Title: 'Graphs' })]} />,
    );
    const grid = screen.getByRole('grid', { name: 'Search results' });
    const header = screen.getByRole('columnheader', { name: /Title/ });
    const before = parseFloat(header.style.width);
    await userEvent.tab();
    expect(document.activeElement).toBe(grid);
    // Up to the header row, right to Title (File, Sheet, Title).
    await userEvent.keyboard('{ArrowUp}{ArrowRight}{ArrowRight}');
    expect(grid.getAttribute('aria-activedescendant')).toBe(header.id);
    await userEvent.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    expect(header.style.width).toBe(`${before + 32}px`);
    const cell = within(screen.getAllByRole('row')[1]!).getAllByRole('gridcell')[2]!;
    expect(cell.style.width).toBe(`${before + 32}px`);
    await userEvent.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(header.style.width).toBe(`${before + 16}px`);
  });

  it("opens a row's drawer: where the record came from and every non-blank field, hidden ones too", async () => {
    renderUi(
      <ResultsGrid
        caption="Search results"
        columns={['Title']}
        recordColumns={['Title', 'Authors', 'Abstract', 'Year']}
        rows={[
          row(2, { Title: 'Graphs', Authors: 'Smith, J', Year: '' }),
          row(7, {
            Title: 'Müller on graphs',
            Authors: 'Müller, K',
            Abstract: 'Line one\nline two',
            Year: '2024',
          }),
        ]}
        highlights={{ terms: { Authors: 'muller' } }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Open row 2' }));
    const drawer = await screen.findByRole('dialog', { name: 'Row 2 of the results' });
    const source = within(drawer).getByRole('table', { name: 'Where this record came from' });
    expect(
      within(source)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['Filewos.xls', 'Sheetsavedrecs', 'Row in sheet7']);
    const fields = within(drawer).getByLabelText('Fields');
    expect(Array.from(fields.querySelectorAll('dt')).map((dt) => dt.textContent)).toEqual([
      'Title',
      'Authors',
      'Abstract',
      'Year',
    ]);
    expect(Array.from(fields.querySelectorAll('mark')).map((m) => m.textContent)).toEqual(['Müller']);
    expect(within(drawer).getByRole('button', { name: 'Copy Abstract' })).toBeTruthy();

    await userEvent.click(within(drawer).getByRole('button', { name: 'Close record' }));
    await userEvent.click(screen.getByRole('button', { name: 'Open row 1' }));
    const first = await screen.findByRole('dialog', { name: 'Row 1 of the results' });
    expect(
      Array.from(within(first).getByLabelText('Fields').querySelectorAll('dt')).map((dt) => dt.textContent),
    ).toEqual(['Title', 'Authors']);
    expect(within(first).getByText('1 blank field not shown.')).toBeTruthy();
  });

  it('moves its active cell with the arrow keys, Home, End and Ctrl+End; Enter opens that row and Escape comes back', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(i + 2, { Title: `T${i + 1}`, Year: `${2020 + i}` }));
    const sorted: string[] = [];
    renderUi(
      <ResultsGrid
        caption="Search results"
        columns={['Title', 'Year']}
        rows={rows}
        onSort={(column) => sorted.push(column)}
      />,
    );
    const grid = screen.getByRole('grid', { name: 'Search results' });
    const active = () => document.getElementById(grid.getAttribute('aria-activedescendant') ?? '');
    // Nothing inside the grid is a Tab stop of its own.
    expect(grid.querySelectorAll('[tabindex="0"], button:not([tabindex="-1"])')).toHaveLength(0);
    await userEvent.tab();
    expect(document.activeElement).toBe(grid);
    expect(active()?.textContent).toBe('wos.xls');
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}');
    expect(active()?.textContent).toBe('T2');
    await userEvent.keyboard('{End}');
    expect(active()?.textContent).toBe('2021');
    await userEvent.keyboard('{Control>}{End}{/Control}');
    expect(active()?.textContent).toBe('2024');
    await userEvent.keyboard('{Home}');
    expect(active()?.textContent).toBe('wos.xls');
    expect(active()?.closest('[role="row"]')?.getAttribute('aria-rowindex')).toBe('6');
    // The header row: Enter sorts by the active column.
    await userEvent.keyboard('{Control>}{Home}{/Control}{ArrowUp}{ArrowRight}{ArrowRight}{Enter}');
    expect(sorted).toEqual(['Title']);
    // Enter on a row opens its drawer; Escape gives the focus back to the grid, on that row.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await screen.findByRole('dialog', { name: 'Row 2 of the results' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(grid));
    expect(active()?.textContent).toBe('T2');
  });
});
