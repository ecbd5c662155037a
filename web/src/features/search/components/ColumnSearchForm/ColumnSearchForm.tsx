import { useId, useMemo, useState, type FormEvent } from 'react';
import type { SuggestionSource } from '../../../../api/queryKeys';
import { ColumnInput } from '../ColumnInput/ColumnInput';
import { criteriaColumns } from '../../columns';
import {
  Badge,
  Box,
  Button,
  Group,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';

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
  /**
   * With more than FILTER_THRESHOLD columns, the form is a compact criteria bar: the inputs of the
   * columns with text typed and of `added` (a few usual ones when there are none), a column picker
   * that adds one, and a button that shows every input (`allInputs`).
   */
  /** Shown at the end of the heading line (the general search's file filter). */
  toolbar?: React.ReactNode;
  compact?: {
    added: readonly string[];
    onAdd: (column: string) => void;
    allInputs: boolean;
    onAllInputs: (all: boolean) => void;
  };
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
  compact,
  toolbar,
}: ColumnSearchFormProps) {
  const [filter, setFilter] = useState('');
  const headingId = useId();
  const many = columns.length > FILTER_THRESHOLD;
  const bar = many && compact !== undefined && !compact.allInputs;
  const barColumns = useMemo(
    () => (bar ? criteriaColumns(columns, values, compact.added) : []),
    [bar, columns, values, compact?.added],
  );
  const shown = useMemo(() => {
    if (bar) return barColumns;
    const needle = filter.trim().toLowerCase();
    return needle ? columns.filter((column) => column.toLowerCase().includes(needle)) : columns;
  }, [bar, barColumns, columns, filter]);
  const [picked, setPicked] = useState<string | null>(null);
  /** Adds a column's input from the picker and moves the focus into it. */
  const add = (column: string | null) => {
    if (!column || !compact) return;
    compact.onAdd(column);
    setPicked(null);
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLInputElement>(`input[placeholder="${CSS.escape(`Search in ${column}`)}"]`)
        ?.focus(),
    );
  };

  const input = (column: string) => (
    <ColumnInput
      column={column}
      value={values[column] ?? ''}
      onChange={(text) => onChange(column, text)}
      source={suggestions}
      disabled={disabled}
    />
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!disabled && !searching) onSubmit();
  };

  return (
    <form onSubmit={submit} aria-labelledby={headingId} role="search">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
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
            {toolbar}
          </Group>
          {many && compact && (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => compact.onAllInputs(!compact.allInputs)}
              aria-expanded={compact.allInputs}
            >
              {compact.allInputs ? 'Fewer inputs' : `All ${columns.length} inputs`}
            </Button>
          )}
          {many && !bar && (
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
        ) : bar ? (
          <Group gap="sm" align="flex-end" wrap="wrap">
            {shown.map((column) => (
              <Box key={column} w={{ base: '100%', xs: 240 }}>
                {input(column)}
              </Box>
            ))}
            <Select
              label="Add a column"
              placeholder="Find a column..."
              data={columns.filter((column) => !shown.includes(column))}
              value={picked}
              onChange={add}
              searchable
              limit={60}
              nothingFoundMessage="No column matches"
              w={{ base: '100%', xs: 240 }}
              comboboxProps={{ withinPortal: true }}
              disabled={disabled}
            />
          </Group>
        ) : (
          <ScrollArea.Autosize
            mah={columns.length > FILTER_THRESHOLD ? 360 : undefined}
            type="auto"
            offsetScrollbars
          >
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs" p={2}>
              {shown.map((column) => (
                <Box key={column}>{input(column)}</Box>
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
