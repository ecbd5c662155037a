import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Modal,
  Popover,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconBookmark, IconTrash } from '@tabler/icons-react';
import type { FileType, SavedQuery } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { notify } from '../../../../ui/notify';
import { formatDateTime } from '../../../../lib/format';
import type { FileFilter } from '../../fileFilter';
import { toSavedSearch, useDeleteSavedSearch, useSaveSearch, useSavedSearches } from '../../savedSearches';
import type { ColumnSearchRequest } from '../../store';

export interface SavedSearchesProps {
  fileType: FileType;
  /** The search shown now (null: nothing to save yet). */
  request: ColumnSearchRequest | null;
  filter: FileFilter;
  /** Opens a saved search on this screen. */
  onOpen: (saved: SavedQuery) => void;
}

/**
 * Saved searches of one screen (`/api/file/queries`): save the current one under a name, and list
 * the saved ones, newest first, to open or delete.
 */
export function SavedSearches({ fileType, request, filter, onOpen }: SavedSearchesProps) {
  const [listOpen, setListOpen] = useState(false);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const saved = useSavedSearches();
  const save = useSaveSearch();
  const remove = useDeleteSavedSearch();
  const mine = (saved.data ?? []).filter((q) => q.fileType === fileType);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!request || !name.trim()) return;
    save.mutate(toSavedSearch(name.trim(), fileType, request, filter), {
      onSuccess: () => {
        setNaming(false);
        setName('');
        notify.success(`Saved search "${name.trim()}"`);
      },
      onError: (error) => notify.error(errorMessage(error, 'The search could not be saved.')),
    });
  };

  return (
    <Group gap="xs">
      <Button variant="default" size="xs" onClick={() => setNaming(true)} disabled={!request}>
        Save search
      </Button>
      <Popover opened={listOpen} onChange={setListOpen} position="bottom-end" width={360} shadow="md">
        <Popover.Target>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconBookmark size={14} aria-hidden />}
            onClick={() => setListOpen((o) => !o)}
          >
            Saved searches ({mine.length})
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          {mine.length === 0 ? (
            <Text size="sm" c="dimmed">
              {saved.isError
                ? errorMessage(saved.error, 'Saved searches could not be loaded.')
                : 'No saved searches yet.'}
            </Text>
          ) : (
            <Stack gap={4} role="list" aria-label="Saved searches">
              {mine.map((q) => (
                <Group key={q.id} justify="space-between" wrap="nowrap" role="listitem" aria-label={q.name}>
                  <UnstyledButton
                    onClick={() => {
                      setListOpen(false);
                      onOpen(q);
                    }}
                    style={{ flex: 1, minWidth: 0 }}
                  >
                    <Text size="sm" fw={600} truncate>
                      {q.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(q.createdAt)}
                    </Text>
                  </UnstyledButton>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${q.name}`}
                    loading={remove.isPending && remove.variables === q.id}
                    onClick={() =>
                      remove.mutate(q.id, {
                        onError: (error) =>
                          notify.error(errorMessage(error, 'The search could not be deleted.')),
                      })
                    }
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          )}
        </Popover.Dropdown>
      </Popover>
      <Modal opened={naming} onClose={() => setNaming(false)} title="Save search">
        <form onSubmit={submit}>
          <Stack gap="sm">
            <TextInput
              label="Name"
              placeholder="e.g. Kowalski, all years"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              data-autofocus
              required
              maxLength={200}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setNaming(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!name.trim()}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}
