import { useId, useMemo, useState, type FormEvent } from 'react';
import { Badge, Button, Group, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';

export interface ColumnSearchFormProps {
  columns: readonly string[];
  values: Readonly<Record<string, string>>;
  onChange: (column: string, text: string) => void;
  onSubmit: () => void;
  onClear: () => void;
  searching: boolean;
  disabled?: boolean;
  activeTerms: number;
  /** Extra buttons after Search and Clear All (Export Results). */
  extraActions?: React.ReactNode;
}

/** With more columns than this, a filter box narrows the inputs shown (Web of Science files have 72). */
const FILTER_THRESHOLD = 12;

/**
 * One labelled text input per column (placeholder 'Search in {column}'), in a scrollable grid.
 * Enter in any input runs the search.
 */
export function ColumnSearchForm({
  columns,
  values,
  onChange,
  onSubmit,
  onClear,
  searching,
  disabled = false,
  activeTerms,
  extraActions,
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
            <Badge variant="light" color="gray">
              {shown.length} of {columns.length} columns
            </Badge>
            {activeTerms > 0 && (
              <Badge variant="light" color="blue">
                {activeTerms} {activeTerms === 1 ? 'term' : 'terms'} set
              </Badge>
            )}
          </Group>
          {columns.length > FILTER_THRESHOLD && (
            <TextInput
              label="Filter columns"
              placeholder="Search columns..."
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              w={260}
              size="xs"
            />
          )}
        </Group>
        {columns.length === 0 ? (
          <Text c="dimmed">No columns available</Text>
        ) : (
          <ScrollArea.Autosize
            mah={columns.length > FILTER_THRESHOLD ? 360 : undefined}
            type="auto"
            offsetScrollbars
          >
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs" p={2}>
              {shown.map((column) => (
                <TextInput
                  key={column}
                  label={column}
                  placeholder={`Search in ${column}`}
                  value={values[column] ?? ''}
                  onChange={(event) => onChange(column, event.currentTarget.value)}
                  disabled={disabled}
                  styles={{
                    label: {
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                      maxWidth: '100%',
                    },
                  }}
                  title={column}
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
