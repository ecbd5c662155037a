// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderUi } from '../../../../test/render';
import { EMAIL_DOMAIN_FACET } from '@sift/shared/contracts';
import { FacetsPanel } from './FacetsPanel';

describe('FacetsPanel', () => {
  it('lists each chosen column’s values with their counts; a click searches for exactly that value', async () => {
    const onPick = vi.fn();
    renderUi(
      <FacetsPanel
        columns={['Title', 'Publication Year', 'Document Type']}
        chosen={['Publication Year', 'Document Type']}
        onChoose={() => {}}
        facets={[
          {
            column: 'Publication Year',
            values: [
              { value: '2021', count: 1234 },
              { value: '2020', count: 1 },
            ],
          },
          { column: 'Document Type', values: [] },
        ]}
        onPick={onPick}
      />,
    );
    const years = screen.getByRole('group', { name: 'Publication Year facet' });
    const buttons = within(years).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Publication Year: 2021, 1,234 rows',
      'Publication Year: 2020, 1 row',
    ]);
    await userEvent.click(buttons[0]!);
    expect(onPick).toHaveBeenCalledWith('Publication Year', '"2021"');
    const types = screen.getByRole('group', { name: 'Document Type facet' });
    expect(within(types).getByText('No values in these results.')).toBeTruthy();
  });

  it('shows email domains, whose click searches the email column for @domain', async () => {
    const onPick = vi.fn();
    renderUi(
      <FacetsPanel
        columns={['Authors', 'Email Addresses']}
        chosen={[EMAIL_DOMAIN_FACET]}
        onChoose={() => {}}
        facets={[
          {
            column: EMAIL_DOMAIN_FACET,
            searchColumn: 'Email Addresses',
            values: [{ value: 'ku.dk', count: 2 }],
          },
        ]}
        onPick={onPick}
      />,
    );
    const domains = screen.getByRole('group', { name: 'Email domains facet' });
    await userEvent.click(within(domains).getByRole('button', { name: 'Email domains: ku.dk, 2 rows' }));
    expect(onPick).toHaveBeenCalledWith('Email Addresses', '@ku.dk');
  });

  it('asks for columns when none is chosen, and shows values still loading', () => {
    const { rerender } = renderUi(
      <FacetsPanel columns={['A']} chosen={[]} onChoose={() => {}} facets={undefined} onPick={() => {}} />,
    );
    expect(screen.getByText('Choose columns to see their most frequent values in the results.')).toBeTruthy();
    rerender(
      <FacetsPanel columns={['A']} chosen={['A']} onChoose={() => {}} facets={undefined} onPick={() => {}} />,
    );
    expect(within(screen.getByRole('group', { name: 'A facet' })).getByText('Loading...')).toBeTruthy();
  });
});
