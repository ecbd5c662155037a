import { useState } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';

export interface TypeToConfirmProps {
  opened: boolean;
  title: string;
  /** What the person must type exactly (the input reads 'Type {phrase} to confirm'). */
  phrase: string;
  /** The submit button's text. */
  submitLabel: string;
  submitColor?: string;
  /** Closed without submitting (Cancel, Escape, the close button). */
  onClose: () => void;
  /** Submitted: whether the typed text is `phrase` exactly. The dialog closes first. */
  onSubmit: (matches: boolean) => void;
}

/**
 * The last step of a destructive action: a dialog where the person types a phrase (the mass
 * delete's `DELETE ALL`, a restore's `RESTORE`) and submits; what was typed is forgotten on close.
 */
export function TypeToConfirm({
  opened,
  title,
  phrase,
  submitLabel,
  submitColor = 'red',
  onClose,
  onSubmit,
}: TypeToConfirmProps) {
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const matches = typed === phrase;
          setTyped('');
          onSubmit(matches);
        }}
      >
        <Stack gap="md">
          <TextInput
            label={`Type ${phrase} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={submitColor}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
