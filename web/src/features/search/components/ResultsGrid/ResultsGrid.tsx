import { useRef } from 'react';
import type { ResultRow } from '@sift/shared/contracts';
import { RecordDrawer } from '../RecordDrawer/RecordDrawer';
import { rowKey, type GridSort } from './grid';
import { GridRow } from './GridRow';
import { HeaderRow } from './HeaderRow';
import { useGridLayout } from './useGridLayout';
import { useGridTable } from './useGridTable';
import { useRowFocus } from './useRowFocus';
import classes from './ResultsGrid.module.css';

export interface ResultsGridProps {
  /** The columns to show (the visible ones), in order. */
  columns: readonly string[];
  rows: readonly ResultRow[];
  caption: string;
  /** Show the File and Sheet columns first (general search). */
  withSource?: boolean;
  /** Every column of the searched files, in order: what the row drawer lists (default `columns`). */
  recordColumns?: readonly string[];
  /** The column the rows are sorted by, and how; with `onSort`, column headers sort on a click. */
  sort?: GridSort;
  onSort?: (column: string) => void;
  /**
   * `terms`: column → the searched text. What it matched in that column's cells is marked, as the
   * search matched it (regardless of case and, unless `matchAccents`, accents).
   */
  highlights?: { terms: Readonly<Record<string, string>>; matchAccents?: boolean };
}

/**
 * Search results as a data grid (TanStack Table for the columns, TanStack Virtual for the rows and
 * columns): compact single-line rows whose whole value is the cell's title, the first column pinned
 * while the rest scroll sideways, columns resized by dragging (or with the arrow keys on) the edge of
 * their header, sortable headers, and only the rows and columns in view drawn, so a page of 1,000
 * rows and 100+ columns scrolls smoothly. A row's first cell is a button that opens the row drawer:
 * every field of the record and where it came from (file, sheet, row). ARIA table roles with
 * `aria-rowcount` / `aria-rowindex` tell screen readers where a drawn row sits; ArrowUp / ArrowDown
 * on a row's button move to the next row, Home / End to the first and last.
 */
export function ResultsGrid({
  columns,
  rows,
  caption,
  withSource = true,
  recordColumns = columns,
  sort,
  onSort,
  highlights,
}: ResultsGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const grid = useGridTable(columns, rows, withSource);
  const { layout, headers, rowVirtualizer, columnCount, totalWidth } = useGridLayout(
    grid,
    rows.length,
    scrollRef,
  );
  const { opened, openRow, closeDrawer, onRowKey } = useRowFocus(rows, rowVirtualizer, scrollRef);
  const openedRow = opened === null ? undefined : rows[opened];
  const { table } = grid;

  return (
    <>
      <div
        ref={scrollRef}
        className={classes.scroller}
        // Scrollable with the keyboard, named for what it holds.
        tabIndex={0}
        role="region"
        aria-label={`${caption}, scrollable`}
      >
        <div
          role="table"
          aria-label={caption}
          aria-rowcount={rows.length + 1}
          aria-colcount={columnCount}
          className={classes.table}
          style={{ width: totalWidth }}
        >
          <HeaderRow
            layout={layout}
            headers={headers}
            sort={sort}
            onSort={onSort}
            resizing={table.state.resizing}
          />
          <div role="rowgroup" className={classes.body} style={{ height: rowVirtualizer.getTotalSize() }}>
            {rowVirtualizer.getVirtualItems().map((virtualRow) => {
              const row = rows[virtualRow.index]!;
              return (
                <GridRow
                  key={rowKey(row, virtualRow.index)}
                  row={row}
                  index={virtualRow.index}
                  start={virtualRow.start}
                  layout={layout}
                  highlights={highlights}
                  onOpen={openRow}
                  onKey={onRowKey}
                />
              );
            })}
          </div>
        </div>
      </div>
      <RecordDrawer
        row={openedRow}
        position={opened === null ? 0 : opened + 1}
        columns={recordColumns}
        highlights={highlights}
        onClose={closeDrawer}
      />
    </>
  );
}
