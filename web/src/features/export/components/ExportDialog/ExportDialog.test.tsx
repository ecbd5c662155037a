// @vitest-environment jsdom
import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../../test/render';
import { ExportDialog } from './ExportDialog';

const columns = ['Authors', 'Article Title', 'Email Addresses'];

function open(onExport = vi.fn(), totalRecords = 5) {
  renderUi(
    <ExportDialog
      opened
      onClose={() => {}}
      onExport={onExport}
      exporting={false}
      totalRecords={totalRecords}
      defaultFilename="search_results_2026-11-23"
      columns={columns}
      defaultColumns={['Authors', 'Article Title']}
    />,
  );
  return onExport;
}

describe('ExportDialog', () => {
  it('exports the visible columns by default, in column order, with the chosen format and filename', async () => {
    const onExport = open();
    expect(screen.getByText('2 of 3 columns selected')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('CSV'));
    await userEvent.type(screen.getByLabelText('Filename (optional)'), 'my results');
    await userEvent.click(screen.getByLabelText('Email Addresses'));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(onExport).toHaveBeenCalledExactlyOnceWith('CSV', 'my results', columns, null, false);
  });

  it('adds the File, Sheet and Row columns on request', async () => {
    const onExport = open();
    await userEvent.click(
      screen.getByLabelText('Add File, Sheet and Row columns (where each row came from)'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(onExport).toHaveBeenCalledExactlyOnceWith('XLSX', '', ['Authors', 'Article Title'], null, true);
  });

  it('starts each opening from the visible columns again', async () => {
    const visible = ['Authors', 'Article Title']; // the same array each render, as the screen memoises it
    function Reopen() {
      const [opened, setOpened] = useState(true);
      return (
        <>
          <button onClick={() => setOpened(true)}>Reopen</button>
          <ExportDialog
            opened={opened}
            onClose={() => setOpened(false)}
            onExport={() => {}}
            exporting={false}
            totalRecords={5}
            defaultFilename="x"
            columns={columns}
            defaultColumns={visible}
          />
        </>
      );
    }
    renderUi(<Reopen />);
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getByText('0 of 3 columns selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Export Results' })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByText('2 of 3 columns selected')).toBeTruthy();
  });

  it('needs at least one column', async () => {
    const onExport = open();
    await userEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('Please select at least one column to export')).toBeTruthy();
    expect(onExport).not.toHaveBeenCalled();
  });

  it('warns above 10,000 records, asks for confirmation, and offers no pre-processing without a preview', async () => {
    const onExport = open(vi.fn(), 10_001);
    expect(screen.getByText(/may take several minutes/)).toBeTruthy();
    expect(screen.queryByLabelText('Enable pre-processing')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    const confirm = await screen.findByRole('dialog', { name: 'Large export' });
    expect(onExport).not.toHaveBeenCalled();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Export' }));
    expect(onExport).toHaveBeenCalledExactlyOnceWith('XLSX', '', ['Authors', 'Article Title'], null, false);
  });
});
