// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UploadSessionSummary } from '@sift/shared/contracts';
import { renderUi } from '../../../../test/render';
import { UploadSessionList } from './UploadSessionList';

const summary = (
  id: string,
  sessionName: string,
  counts: { total: number; completed: number; failed: number; percent: number },
): UploadSessionSummary => ({
  session: {
    id,
    sessionName,
    totalFiles: counts.total,
    completedFiles: counts.completed,
    failedFiles: counts.failed,
    progressPercentage: counts.percent,
    isActive: counts.completed + counts.failed < counts.total,
    isCompleted: false,
    finalized: true,
    createdAt: '2026-11-25T10:00:00Z',
  },
  files: [],
});

const SESSIONS = [
  summary('s1', 'wos.xls', { total: 2, completed: 1, failed: 0, percent: 66.9 }),
  summary('s2', '3 files', { total: 3, completed: 1, failed: 1, percent: 99.99 }),
];

describe('UploadSessionList', () => {
  it('shows each session with files processed and its percentage without decimals, rounded down', () => {
    renderUi(<UploadSessionList sessions={SESSIONS} selectedId={null} onSelect={() => {}} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('1 of 2 files processed')).toBeTruthy();
    expect(within(items[0]!).getByText('66%')).toBeTruthy();
    expect(within(items[1]!).getByText('2 of 3 files processed')).toBeTruthy();
    expect(within(items[1]!).getByText('99%')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '3 files progress' })).toBeTruthy();
  });

  it('marks the session shown in detail and asks to show another one', async () => {
    const onSelect = vi.fn();
    renderUi(<UploadSessionList sessions={SESSIONS} selectedId="s1" onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: 'wos.xls' }).getAttribute('aria-pressed')).toBe('true');
    const other = screen.getByRole('button', { name: '3 files' });
    expect(other.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(other);
    expect(onSelect).toHaveBeenCalledWith('s2');
  });
});
