import type { CSSProperties, ReactNode } from 'react';
import { Checkbox, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { pageSelection, withIds } from '../../lib/selection';

/** One column of a DataTable: its header and how a row's cell is drawn. */
export interface DataColumn<T> {
  /** Unique among the table's columns. */
  key: string;
  /** The header's text; read to screen readers only when `hideHeader` (an actions column). */
  header: string;
  hideHeader?: boolean;
  align?: 'left' | 'right';
  /** Width of the column (CSS length or pixels). */
  width?: number | string;
  headerStyle?: CSSProperties;
  cellStyle?: CSSProperties;
  render: (row: T, index: number) => ReactNode;
  /**
   * A sortable column: its header is a button calling `onSort`, and the header says how the rows
   * are sorted by it (`aria-sort`; null: not by this column).
   */
  sort?: { direction: 'asc' | 'desc' | null; onSort: () => void };
}

/** A sortable column's `aria-sort`, by its direction ('none': sorted by another column or not at all). */
export const ARIA_SORT = { asc: 'ascending', desc: 'descending', none: 'none' } as const;

/** Rows chosen with a checkbox each, and one in the header for every row shown. */
export interface DataTableSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The accessible name of a row's checkbox (`Select report.xlsx`). */
  rowLabel: (row: T) => string;
  /** The accessible name of the header's checkbox. */
  allLabel: string;
}

export interface DataTableProps<T> {
  /** What the table holds, for screen readers (a caption). */
  caption: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  selection?: DataTableSelection<T>;
  /** A grid of data (search results): column borders, a sticky header, smaller text. */
  dense?: boolean;
}

/**
 * The one table of the app: a caption, `scope="col"` headers, striped rows that scroll sideways
 * below `minWidth`, and optionally a checkbox a row with a select-all for the rows shown (checked,
 * partly checked or not). Selected rows are highlighted.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  minWidth,
  selection,
  dense = false,
}: DataTableProps<T>) {
  const keys = rows.map(rowKey);
  const shown = selection ? pageSelection(keys, selection.selected) : 'none';
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table
        striped
        highlightOnHover
        withTableBorder
        withColumnBorders={dense}
        stickyHeader={dense}
        verticalSpacing={dense ? 'xs' : 'sm'}
        fz={dense ? 'sm' : undefined}
      >
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th scope="col" w={40}>
                <Checkbox
                  aria-label={selection.allLabel}
                  checked={shown === 'all'}
                  indeterminate={shown === 'some'}
                  onChange={(event) =>
                    selection.onChange(withIds(selection.selected, keys, event.currentTarget.checked))
                  }
                />
              </Table.Th>
            )}
            {columns.map((column) => (
              <Table.Th
                key={column.key}
                scope="col"
                ta={column.align}
                w={column.width}
                style={column.headerStyle}
                aria-sort={column.sort && ARIA_SORT[column.sort.direction ?? 'none']}
              >
                {column.hideHeader ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : column.sort ? (
                  <SortButton header={column.header} {...column.sort} />
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const key = keys[index]!;
            const isSelected = selection?.selected.has(key) ?? false;
            return (
              <Table.Tr key={key} bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}>
                {selection && (
                  <Table.Td>
                    <Checkbox
                      aria-label={selection.rowLabel(row)}
                      checked={isSelected}
                      onChange={(event) =>
                        selection.onChange(withIds(selection.selected, [key], event.currentTarget.checked))
                      }
                    />
                  </Table.Td>
                )}
                {columns.map((column) => (
                  <Table.Td key={column.key} ta={column.align} style={column.cellStyle}>
                    {column.render(row, index)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A sortable column's header: its name and an arrow for the current order; a click sorts. */
export function SortButton({
  header,
  direction,
  onSort,
  tabIndex,
}: {
  header: string;
  direction: 'asc' | 'desc' | null;
  onSort: () => void;
  /** -1 where the button is no Tab stop of its own (the results grid: its header sorts on Enter). */
  tabIndex?: number;
}) {
  const Arrow = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton
      onClick={onSort}
      tabIndex={tabIndex}
      fw={600}
      fz="inherit"
      title={`Sort by ${header}`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
    >
      {header}
      <Arrow size={14} aria-hidden style={{ opacity: direction ? 1 : 0.4 }} />
    </UnstyledButton>
  );
}
