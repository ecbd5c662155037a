import { useState } from 'react';
import { Badge, Button, Checkbox, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { sortedColumns } from '../../lib/columns';

export interface ColumnChecklistProps {
  /** Every column that can be chosen. */
  columns: readonly string[];
  checked: ReadonlySet<string>;
  onChange: (checked: Set<string>) => void;
  /** Screen-reader name of the list ('Visible columns', 'Columns to export'). */
  label: string;
  /** Mark unchecked columns with a 'Hidden' label (Column Settings). */
  markHidden?: boolean;
}

/**
 * Select All / Deselect All, a 'Search columns...' filter, the columns as a checkbox list sorted by
 * name, and the counter 'N of M columns selected'. Select All and Deselect All act on the columns
 * the filter shows.
 */
export function ColumnChecklist({
  columns,
  checked,
  onChange,
  label,
  markHidden = false,
}: ColumnChecklistProps) {
  const [filter, setFilter] = useState('');
  const shown = sortedColumns(columns, filter);
  const selected = columns.filter((column) => checked.has(column)).length;
  const setShown = (on: boolean) => {
    const next = new Set(checked);
    for (const column of shown) {
      if (on) next.add(column);
      else next.delete(column);
    }
    onChange(next);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setShown(true)}>
            Select All
          </Button>
          <Button size="xs" variant="default" onClick={() => setShown(false)}>
            Deselect All
          </Button>
        </Group>
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected} of {columns.length} columns selected
        </Text>
      </Group>
      <TextInput
        aria-label="Filter columns"
        placeholder="Search columns..."
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
      />
      <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
        <Stack gap={6} role="group" aria-label={label}>
          {shown.map((column) => (
            <Group key={column} gap="xs" wrap="nowrap" justify="space-between">
              <Checkbox
                label={column}
                checked={checked.has(column)}
                onChange={(event) => {
                  const next = new Set(checked);
                  if (event.currentTarget.checked) next.add(column);
                  else next.delete(column);
                  onChange(next);
                }}
              />
              {markHidden && !checked.has(column) && (
                <Badge size="xs" variant="light" color="gray">
                  Hidden
                </Badge>
              )}
            </Group>
          ))}
          {shown.length === 0 && (
            <Text size="sm" c="dimmed">
              No columns match "{filter}".
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
