// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AdminAccount } from '@sift/shared/contracts';
import { renderUi } from '../../../../test/render';
import { AccountsTable } from './AccountsTable';

const account = (id: string, firstName: string, active: boolean): AdminAccount => ({
  id,
  firstName,
  lastName: 'Tester',
  email: `${firstName.toLowerCase()}@example.org`,
  active,
  onboarded: true,
  createdAt: '2026-11-25T10:00:00Z',
});

describe('AccountsTable', () => {
  it("offers Deactivate, Delete and People on other accounts' rows, and none on the administrator's own", async () => {
    const onToggleActive = vi.fn();
    const onDelete = vi.fn();
    const onReviewPeople = vi.fn();
    const accounts = [account('me', 'Ada', true), account('other', 'Bea', false)];
    renderUi(
      <AccountsTable
        accounts={accounts}
        selfId="me"
        busy={{ has: () => false }}
        onToggleActive={onToggleActive}
        onDelete={onDelete}
        onReviewPeople={onReviewPeople}
      />,
    );
    const own = screen.getByRole('row', { name: /ada@example\.org/ });
    expect(within(own).queryAllByRole('button')).toEqual([]);
    expect(within(own).getByText('Your account')).toBeTruthy();

    const other = screen.getByRole('row', { name: /bea@example\.org/ });
    await userEvent.click(within(other).getByRole('button', { name: 'Activate Bea Tester' }));
    expect(onToggleActive).toHaveBeenCalledWith(accounts[1]);
    await userEvent.click(within(other).getByRole('button', { name: 'Delete Bea Tester' }));
    expect(onDelete).toHaveBeenCalledWith(accounts[1]);
    await userEvent.click(
      within(other).getByRole('button', { name: 'Review the people of Bea Tester offered as the same name' }),
    );
    expect(onReviewPeople).toHaveBeenCalledWith(accounts[1]);
  });
});
