// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../../../test/render';
import { MassDeleteCard } from './MassDeleteCard';

async function throughBothConfirmations() {
  await userEvent.click(screen.getByRole('button', { name: 'DELETE ALL FILES AND DATA' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
  await userEvent.click(await screen.findByRole('button', { name: 'Yes, continue' }));
  return screen.findByRole('textbox', { name: 'Type DELETE ALL to confirm' });
}

/** Renders an idle card; returns its callbacks. */
function renderCard() {
  const onConfirmed = vi.fn();
  const onMismatch = vi.fn();
  renderUi(
    <MassDeleteCard
      running={false}
      blocked={false}
      result={undefined}
      onConfirmed={onConfirmed}
      onMismatch={onMismatch}
    />,
  );
  return { onConfirmed, onMismatch };
}

describe('MassDeleteCard', () => {
  it('runs only after two confirmations and the phrase typed exactly', async () => {
    const { onConfirmed, onMismatch } = renderCard();
    const input = await throughBothConfirmations();
    expect(onConfirmed).not.toHaveBeenCalled();
    await userEvent.type(input, 'DELETE ALL');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Everything' }));
    expect(onConfirmed).toHaveBeenCalledTimes(1);
    expect(onMismatch).not.toHaveBeenCalled();
  });

  it('deletes nothing when the phrase differs, or when a confirmation is cancelled', async () => {
    const { onConfirmed, onMismatch } = renderCard();
    const input = await throughBothConfirmations();
    await userEvent.type(input, 'delete all');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Everything' }));
    expect(onMismatch).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'DELETE ALL FILES AND DATA' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Type DELETE ALL to confirm' })).toBeNull();
    expect(onConfirmed).not.toHaveBeenCalled();
  });

  it('cannot start while another maintenance call runs', () => {
    renderUi(
      <MassDeleteCard
        running={false}
        blocked
        result={undefined}
        onConfirmed={() => {}}
        onMismatch={() => {}}
      />,
    );
    expect(
      (screen.getByRole('button', { name: 'DELETE ALL FILES AND DATA' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});
