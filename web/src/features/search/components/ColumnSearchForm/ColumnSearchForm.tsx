import { useId, useMemo, useState, type FormEvent } from 'react';
import type { SuggestionSource } from '../../../../api/queryKeys';
import { ColumnInput } from '../ColumnInput/ColumnInput';
import { Badge, Button, Group, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';

export interface ColumnSearchFormProps {
  /** The visible columns: one input each. */
  columns: readonly string[];
  /** How many columns there are in all (the chip reads 'N of M columns'). */
  totalColumns: number;
  /** Opens the Column Settings dialog (the chip's action). */
  onColumnSettings: () => void;
  /** Where each input's suggestions come from. */
  suggestions: SuggestionSource;
  values: Readonly<Record<string, string>>;
  onChange: (column: string, text: string) => void;
  onSubmit: () => void;
  onClear: () => void;
  searching: boolean;
  disabled?: boolean;
  activeTerms: number;
  /** Extra buttons after Search and Clear All (Export Results). */
  extraActions?: React.ReactNode;
  /** Shown instead of the inputs when there are no columns at all (default 'No columns available'). */
  noColumnsText?: string;
}

/** With more columns than this, a filter box narrows the inputs shown (Web of Science files have 72). */
const FILTER_THRESHOLD = 12;

/**
 * One labelled text input per column (placeholder 'Search in {column}'), in a scrollable grid.
 * Enter in any input runs the search.
 */
export function ColumnSearchForm({
  columns,
  totalColumns,
  onColumnSettings,
  suggestions,
  values,
  onChange,
  onSubmit,
  onClear,
  searching,
  disabled = false,
  activeTerms,
  extraActions,
  noColumnsText = 'No columns available',
}: ColumnSearchFormProps) {
  const [filter, setFilter] = useState('');
  const headingId = useId();
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? columns.filter((column) => column.toLowerCase().includes(needle)) : columns;
  }, [columns, filter]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!disabled && !searching) onSubmit();
  };

  return (
    <form onSubmit={submit} aria-labelledby={headingId} role="search">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Group gap="xs">
            <Text id={headingId} fw={600}>
              Search in Specific Columns
            </Text>
            <Button
              variant="light"
              color="gray"
              size="compact-sm"
              radius="xl"
              onClick={onColumnSettings}
              disabled={totalColumns === 0}
              aria-haspopup="dialog"
              title="Column Settings"
            >
              {columns.length} of {totalColumns} columns
            </Button>
            {activeTerms > 0 && (
              <Badge variant="light" color="blue">
                {activeTerms} {activeTerms === 1 ? 'term' : 'terms'} set
              </Badge>
            )}
          </Group>
          {columns.length > FILTER_THRESHOLD && (
            <TextInput
              label="Find a column"
              placeholder="Column name..."
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              w={260}
              size="xs"
            />
          )}
        </Group>
        {columns.length === 0 ? (
          <Text c="dimmed">
            {totalColumns === 0 ? noColumnsText : 'Every column is hidden: choose some in Column Settings.'}
          </Text>
        ) : (
          <ScrollArea.Autosize
            mah={columns.length > FILTER_THRESHOLD ? 360 : undefined}
            type="auto"
            offsetScrollbars
          >
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs" p={2}>
              {shown.map((column) => (
                <ColumnInput
                  key={column}
                  column={column}
                  value={values[column] ?? ''}
                  onChange={(text) => onChange(column, text)}
                  source={suggestions}
                  disabled={disabled}
                />
              ))}
            </SimpleGrid>
            {shown.length === 0 && (
              <Text c="dimmed" size="sm">
                No columns match "{filter}".
              </Text>
            )}
          </ScrollArea.Autosize>
        )}
        <Group>
          <Button type="submit" disabled={disabled || searching}>
            {searching ? 'Searching...' : 'Search'}
          </Button>
          <Button variant="default" onClick={onClear} disabled={disabled}>
            Clear All
          </Button>
          {extraActions}
        </Group>
      </Stack>
    </form>
  );
}
