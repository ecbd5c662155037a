// @vitest-environment jsdom
import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../../test/render';
import { ColumnSettings } from './ColumnSettings';

const COLUMNS = ['Title', 'Authors', 'Year', 'DOI'];

function Harness({ onClose = () => {} }: { onClose?: () => void }) {
  const [visible, setVisible] = useState<ReadonlySet<string>>(new Set(['Title', 'Authors']));
  return (
    <>
      <ColumnSettings opened onClose={onClose} columns={COLUMNS} visible={visible} onChange={setVisible} />
      <output>{[...visible].sort().join(',')}</output>
    </>
  );
}

describe('ColumnSettings', () => {
  it('lists the columns sorted by name, marks hidden ones and counts the visible', async () => {
    renderUi(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Column Settings' });
    const list = within(dialog).getByRole('group', { name: 'Visible columns' });
    expect(within(list).getAllByRole('checkbox')).toHaveLength(4);
    expect(
      within(list)
        .getAllByText(/^(Authors|DOI|Title|Year)$/)
        .map((e) => e.textContent),
    ).toEqual(['Authors', 'DOI', 'Title', 'Year']);
    expect(within(list).getAllByText('Hidden')).toHaveLength(2);
    expect(within(dialog).getByText('2 of 4 columns selected')).toBeTruthy();
  });

  it('shows or hides a column, and Select All / Deselect All act on the filtered columns', async () => {
    renderUi(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Column Settings' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Year' }));
    expect(screen.getByRole('status').textContent).toBe('Authors,Title,Year');

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Filter columns' }), 't');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deselect All' }));
    // 'Authors' and 'Title' contain a t; 'Year' does not and stays visible.
    expect(screen.getByRole('status').textContent).toBe('Year');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('status').textContent).toBe('Authors,Title,Year');
    expect(within(dialog).getByText('3 of 4 columns selected')).toBeTruthy();
  });

  it('closes with its Close button', async () => {
    const onClose = vi.fn();
    renderUi(<Harness onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Column Settings' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
