// @vitest-environment jsdom
import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FileRecord } from '@sift/shared/contracts';
import { NO_FILE_FILTER, type FileFilter } from '../../fileFilter';
import { renderUi } from '../../../../test/render';
import { FileFilterControl } from './FileFilterControl';

const files: FileRecord[] = Array.from({ length: 27 }, (_, i) => ({
  id: `f${i}`,
  originalFilename: `file-${String(i).padStart(2, '0')}.xlsx`,
  filename: `f${i}.xlsx`,
  fileType: 'GENERAL',
  status: 'PROCESSED',
  totalRows: 1,
  rowCount: 1,
  totalColumns: 1,
  columnNames: ['A'],
  sheetNames: ['Sheet1'],
  uploadDate: '2026-11-01T10:00:00Z',
  sizeBytes: 1,
  errorMessage: null,
  sourceFileId: null,
}));

function Harness({ initial }: { initial: FileFilter }) {
  const [filter, setFilter] = useState(initial);
  return <FileFilterControl files={files} filter={filter} onChange={setFilter} />;
}

describe('FileFilterControl', () => {
  it('includes files from the checklist and warns from 20', async () => {
    renderUi(<Harness initial={{ mode: 'include', fileIds: files.slice(0, 19).map((f) => f.id) }} />);
    expect(screen.queryByText(/Approaching limit/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '19 files included' }));
    await userEvent.click(
      within(await screen.findByRole('group', { name: 'Files to include' })).getByLabelText('file-19.xlsx'),
    );
    expect(screen.getByRole('button', { name: '20 files included' })).toBeTruthy();
    expect(screen.getByText('Approaching limit: 20 of 25 files')).toBeTruthy();
  });

  it('refuses a 26th file with the spec message, and switching mode clears the list', async () => {
    renderUi(<Harness initial={{ mode: 'include', fileIds: files.slice(0, 25).map((f) => f.id) }} />);
    await userEvent.click(screen.getByRole('button', { name: '25 files included' }));
    const list = await screen.findByRole('group', { name: 'Files to include' });
    await userEvent.click(within(list).getByLabelText('file-26.xlsx'));
    expect(
      await screen.findByText(
        'Maximum of 25 files can be selected at once. Please deselect some files first.',
      ),
    ).toBeTruthy();
    expect((within(list).getByLabelText('file-26.xlsx') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: '25 files included' })).toBeTruthy();

    await userEvent.click(screen.getByText('Exclude'));
    expect(screen.getByRole('button', { name: 'All files' })).toBeTruthy();
  });

  it('refuses a 26th excluded file with the exclusion message', async () => {
    renderUi(<Harness initial={{ mode: 'exclude', fileIds: files.slice(0, 25).map((f) => f.id) }} />);
    await userEvent.click(screen.getByRole('button', { name: '25 files excluded' }));
    await userEvent.click(
      within(await screen.findByRole('group', { name: 'Files to exclude' })).getByLabelText('file-25.xlsx'),
    );
    expect(
      await screen.findByText(
        'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
      ),
    ).toBeTruthy();
  });

  // The pause is given to the control: the test decides how long it is, never the machine's load.
  it('applies the ticks of an open checklist once, when it closes', async () => {
    const onChange = vi.fn();
    // A pause no test outlives: only closing the checklist can apply the ticks.
    renderUi(
      <FileFilterControl files={files} filter={NO_FILE_FILTER} onChange={onChange} pauseMs={2 ** 31 - 1} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'All files' }));
    const list = await screen.findByRole('group', { name: 'Files to include' });
    for (const name of ['file-01.xlsx', 'file-02.xlsx', 'file-03.xlsx'])
      await userEvent.click(within(list).getByLabelText(name));
    expect(screen.getByRole('button', { name: '3 files included' })).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.keyboard('{Escape}');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ mode: 'include', fileIds: ['f1', 'f2', 'f3'] });
  });

  it('applies the ticks after a pause while the checklist stays open', async () => {
    const onChange = vi.fn();
    renderUi(<FileFilterControl files={files} filter={NO_FILE_FILTER} onChange={onChange} pauseMs={1} />);
    await userEvent.click(screen.getByRole('button', { name: 'All files' }));
    const list = await screen.findByRole('group', { name: 'Files to include' });
    await userEvent.click(within(list).getByLabelText('file-04.xlsx'));
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith({ mode: 'include', fileIds: ['f4'] }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('group', { name: 'Files to include' })).toBeTruthy(); // still open
  });

  it('starts with every file', () => {
    renderUi(<Harness initial={NO_FILE_FILTER} />);
    expect(screen.getByRole('button', { name: 'All files' })).toBeTruthy();
  });
});
