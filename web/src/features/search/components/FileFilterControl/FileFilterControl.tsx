import { useEffect, useRef, useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Popover,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { FileRecord } from '@sift/shared/contracts';
import {
  MAX_FILTER_FILES,
  nearLimit,
  switchMode,
  toggleFile,
  type FileFilter,
  type FileFilterMode,
} from '../../fileFilter';
import { formatDateTime } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';

export interface FileFilterControlProps {
  /** The files that can be chosen (the searchable GENERAL files). */
  files: readonly FileRecord[];
  filter: FileFilter;
  onChange: (filter: FileFilter) => void;
  /** How long ticks must pause before they are applied, in ms (FILTER_PAUSE_MS unless a test says). */
  pauseMs?: number;
}

/** Ticks in the open checklist are applied once they pause this long (or when it closes), in ms. */
export const FILTER_PAUSE_MS = 800;

const sameFilter = (a: FileFilter, b: FileFilter) =>
  a.mode === b.mode &&
  a.fileIds.length === b.fileIds.length &&
  a.fileIds.every((id, i) => id === b.fileIds[i]);

/**
 * The general search's file filter: Include or Exclude mode and a dropdown checklist of the files
 * (with a name filter). At most 25 files; 'Approaching limit' from 20. Ticks in the checklist are
 * gathered and applied (one search) when it closes or after a pause of FILTER_PAUSE_MS, not one
 * search a tick.
 */
export function FileFilterControl({
  files,
  filter: applied,
  onChange,
  pauseMs = FILTER_PAUSE_MS,
}: FileFilterControlProps) {
  const [needle, setNeedle] = useState('');
  const [opened, setOpened] = useState(false);
  /** The checklist's choice while it is open and not yet applied. */
  const [draft, setDraft] = useState<FileFilter | null>(null);
  const filter = draft ?? applied;
  const apply = (next: FileFilter) => {
    if (!sameFilter(next, applied)) onChange(next);
  };
  // The pause's timer restarts with each tick, not with each render of the screen.
  const latestApply = useRef(apply);
  useEffect(() => {
    latestApply.current = apply;
  });
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => latestApply.current(draft), pauseMs);
    return () => clearTimeout(timer);
  }, [draft, pauseMs]);
  const close = () => {
    setOpened(false);
    if (draft) apply(draft);
    setDraft(null);
  };
  const chosen = new Set(filter.fileIds);
  const count = filter.fileIds.length;
  const shown = files.filter((file) =>
    file.originalFilename.toLowerCase().includes(needle.trim().toLowerCase()),
  );
  const summary =
    count === 0
      ? 'All files'
      : `${count} ${count === 1 ? 'file' : 'files'} ${filter.mode === 'include' ? 'included' : 'excluded'}`;

  const toggle = (id: string) => {
    const next = toggleFile(filter, id);
    if (next.error) notify.error(next.error);
    else setDraft(next.filter);
  };

  return (
    <Group gap="sm" wrap="wrap" align="center">
      <Text size="sm" fw={600}>
        Files
      </Text>
      <SegmentedControl
        aria-label="File filter mode"
        size="xs"
        value={filter.mode}
        data={[
          { value: 'include', label: 'Include' },
          { value: 'exclude', label: 'Exclude' },
        ]}
        onChange={(mode) => {
          setDraft(null);
          onChange(switchMode(filter, mode as FileFilterMode));
        }}
      />
      <Popover
        position="bottom-start"
        width={420}
        shadow="md"
        trapFocus
        opened={opened}
        onChange={(open) => (open ? setOpened(true) : close())}
      >
        <Popover.Target>
          <Button
            variant="default"
            size="xs"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            onClick={() => (opened ? close() : setOpened(true))}
          >
            {summary}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <TextInput
              size="xs"
              aria-label="Filter files by name"
              placeholder="Search files..."
              value={needle}
              onChange={(event) => setNeedle(event.currentTarget.value)}
              data-autofocus
            />
            <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
              <Stack
                gap={6}
                role="group"
                aria-label={filter.mode === 'include' ? 'Files to include' : 'Files to exclude'}
              >
                {shown.map((file) => (
                  <Checkbox
                    key={file.id}
                    checked={chosen.has(file.id)}
                    onChange={() => toggle(file.id)}
                    label={file.originalFilename}
                    description={formatDateTime(file.uploadDate)}
                  />
                ))}
                {shown.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No files match.
                  </Text>
                )}
              </Stack>
            </ScrollArea.Autosize>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {count} of at most {MAX_FILTER_FILES} files{' '}
                {filter.mode === 'include' ? 'included' : 'excluded'}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                disabled={count === 0}
                onClick={() => setDraft({ ...filter, fileIds: [] })}
              >
                Clear
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {nearLimit(filter) && (
        <Badge color="yellow" variant="light">
          Approaching limit: {count} of {MAX_FILTER_FILES} files
        </Badge>
      )}
    </Group>
  );
}
