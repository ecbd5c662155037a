// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DeletionResult } from '@sift/shared/contracts';
import { renderUi } from '../../../../test/render';
import { MAINTENANCE_ACTIONS } from '../../maintenance';
import { MaintenanceCard } from './MaintenanceCard';

const files = MAINTENANCE_ACTIONS.find((a) => a.kind === 'files')!;
const result: DeletionResult = {
  filesDeleted: 1234,
  fileRecordsDeleted: 1300,
  fileDataRecordsDeleted: 0,
  exportHistoryRecordsDeleted: 0,
  clickHouseCollectionsCleared: 0,
  uploadTrackingDataCleared: 0,
  clickHouseReindexed: 0,
  totalRecordsDeleted: 1300,
  durationMs: 42,
  timestamp: '2026-11-25T10:00:00Z',
  clickHouseError: 'Code: 60. Table does not exist',
  uploadTrackingError: null,
};

describe('MaintenanceCard', () => {
  it('says what the action does and asks for it with its button', async () => {
    const onRequest = vi.fn();
    renderUi(
      <MaintenanceCard
        action={files}
        running={false}
        blocked={false}
        result={undefined}
        onRequest={onRequest}
      />,
    );
    const card = screen.getByRole('region', { name: 'Files' });
    expect(within(card).getByRole('heading', { name: 'Files' })).toBeTruthy();
    expect(within(card).getByText(files.description)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Delete Files' }));
    expect(onRequest).toHaveBeenCalledWith(files);
    expect(within(card).queryByRole('status')).toBeNull();
  });

  it('waits while another call runs', () => {
    renderUi(
      <MaintenanceCard action={files} running={false} blocked result={undefined} onRequest={() => {}} />,
    );
    expect((screen.getByRole('button', { name: 'Delete Files' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows its result fields and the engine warning after a run', () => {
    renderUi(
      <MaintenanceCard action={files} running={false} blocked={false} result={result} onRequest={() => {}} />,
    );
    const panel = screen.getByRole('status', { name: 'Files result' });
    const rows = within(panel)
      .getAllByRole('row')
      .map((r) => [within(r).getByRole('rowheader').textContent, within(r).getByRole('cell').textContent]);
    expect(rows).toEqual([
      ['Stored files deleted', (1234).toLocaleString()],
      ['File records deleted', (1300).toLocaleString()],
      ['Total records deleted', (1300).toLocaleString()],
      ['Duration', '42 ms'],
    ]);
    expect(within(panel).getByText('ClickHouse: Code: 60. Table does not exist')).toBeTruthy();
  });
});
