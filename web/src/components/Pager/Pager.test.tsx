// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../test/render';
import { Pager } from './Pager';

describe('Pager', () => {
  it('shows Previous, Page X of Y and Next, and no go-to box up to 10 pages', async () => {
    const onPage = vi.fn();
    renderUi(<Pager page={0} totalPages={10} onPage={onPage} label="Files pages" />);
    expect(screen.getByText('Page 1 of 10')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Go to page/ })).toBeNull();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(1);
  });

  it('jumps with the go-to box above 10 pages, on Enter, only to pages 1 to the total', async () => {
    const onPage = vi.fn();
    renderUi(<Pager page={0} totalPages={12} onPage={onPage} label="Files pages" />);
    const box = screen.getByRole('textbox', { name: 'Go to page (1 to 12)' });
    await userEvent.type(box, '13{Enter}');
    await userEvent.type(box, '0{Enter}');
    await userEvent.type(box, 'x{Enter}');
    expect(onPage).not.toHaveBeenCalled();
    await userEvent.type(box, '12{Enter}');
    expect(onPage).toHaveBeenCalledExactlyOnceWith(11);
    expect((box as HTMLInputElement).value).toBe('');
  });
});
