import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../ConfirmDialog/ConfirmDialog';
import { notify } from '../../ui/notify';
import { useIdSet, type IdSet } from '../../hooks/useIdSet';

export interface DeleteFlowOptions<T extends { id: string }> {
  /** The confirmation dialog's title, e.g. 'Delete file'. */
  title: string;
  /** The item's name as shown in the dialog and the toasts. */
  name: (item: T) => string;
  /** Starts the delete (a mutation's `mutate`), calling back when it ends. */
  run: (
    item: T,
    callbacks: { onSuccess: () => void; onError: (error: unknown) => void; onSettled: () => void },
  ) => void;
}

/**
 * Delete one item after a confirmation, with the spec's toasts (section 8: 'Successfully deleted
 * "name"', 'Failed to delete "name". Please try again.') and a per-item deleting state. Render
 * `dialog` once; call `ask(item)` from the item's delete button.
 */
export function useDeleteFlow<T extends { id: string }>({
  title,
  name,
  run,
}: DeleteFlowOptions<T>): { ask: (item: T) => void; deleting: IdSet; dialog: ReactNode } {
  const deleting = useIdSet();
  const [confirming, setConfirming] = useState<T | null>(null);

  const remove = (item: T) => {
    setConfirming(null);
    deleting.add(item.id);
    run(item, {
      onSuccess: () => notify.success(`Successfully deleted "${name(item)}"`),
      onError: (error) => {
        console.error('Delete failed', error);
        notify.error(`Failed to delete "${name(item)}". Please try again.`);
      },
      onSettled: () => deleting.remove(item.id),
    });
  };

  const dialog = (
    <ConfirmDialog
      opened={confirming !== null}
      title={title}
      message={
        confirming
          ? `Are you sure you want to delete "${name(confirming)}"? This action cannot be undone.`
          : ''
      }
      confirmLabel="Delete"
      onConfirm={() => confirming && remove(confirming)}
      onCancel={() => setConfirming(null)}
    />
  );
  return { ask: setConfirming, deleting, dialog };
}
