// @vitest-environment jsdom
import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../test/render';
import { DataTable, type DataColumn, type DataTableSelection } from './DataTable';

interface Fruit {
  id: string;
  name: string;
  count: number;
}
const fruits: Fruit[] = [
  { id: 'a', name: 'Apple', count: 3 },
  { id: 'b', name: 'Banana', count: 12 },
];
const columns: DataColumn<Fruit>[] = [
  { key: 'name', header: 'Name', render: (f) => f.name },
  { key: 'count', header: 'Count', align: 'right', render: (f) => String(f.count) },
  { key: 'actions', header: 'Actions', hideHeader: true, render: (f) => <button>Eat {f.name}</button> },
];

function FruitTable({ selection }: { selection?: DataTableSelection<Fruit> }) {
  return (
    <DataTable
      caption="Fruit in stock"
      columns={columns}
      rows={fruits}
      rowKey={(f) => f.id}
      minWidth={400}
      selection={selection}
    />
  );
}

function Selectable() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return (
    <>
      <FruitTable
        selection={{
          selected,
          onChange: setSelected,
          rowLabel: (f) => `Select ${f.name}`,
          allLabel: 'Select all fruit',
        }}
      />
      <output>{[...selected].sort().join(',')}</output>
    </>
  );
}

describe('DataTable', () => {
  it('gives the table its caption, column headers and one row per item', () => {
    renderUi(<FruitTable />);
    const table = screen.getByRole('table', { name: 'Fruit in stock' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Count', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Apple', '3', 'Eat Apple'],
      ['Banana', '12', 'Eat Banana'],
    ]);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('selects rows one by one or all at once, and shows a partial selection', async () => {
    renderUi(<Selectable />);
    const all = screen.getByRole('checkbox', { name: 'Select all fruit' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select Banana' }));
    expect(screen.getByRole('status').textContent).toBe('b');
    expect((all as HTMLInputElement).checked).toBe(false);
    expect(all.getAttribute('data-indeterminate')).toBe('true');

    await userEvent.click(all);
    expect(screen.getByRole('status').textContent).toBe('a,b');
    expect((all as HTMLInputElement).checked).toBe(true);

    await userEvent.click(all);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
