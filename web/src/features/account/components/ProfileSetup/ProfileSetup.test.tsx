// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../../test/render';
import { ProfileSetupPage } from './ProfileSetup';

afterEach(() => vi.restoreAllMocks());

describe('Profile setup', () => {
  it('shows both field errors at once and saves nothing', async () => {
    // Spied, not answered: the test only checks that no call is made.
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderUi(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <ProfileSetupPage
            account={{
              id: 'a',
              firstName: '',
              lastName: '',
              email: 'a@example.com',
              active: true,
              onboarded: false,
            }}
            productName="Sift"
            onLogout={() => {}}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Welcome to Sift' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(screen.getByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();

    // One field fixed: the other error stays, still nothing sent.
    await userEvent.type(screen.getByLabelText(/First Name/), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(screen.queryByText('First name is required')).toBeNull();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
