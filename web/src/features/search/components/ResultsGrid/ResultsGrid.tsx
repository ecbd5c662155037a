import { useRef } from 'react';
import type { ResultRow } from '@sift/shared/contracts';
import { RecordDrawer } from '../RecordDrawer/RecordDrawer';
import { MAX_WIDTH, MIN_WIDTH, RESIZE_STEP, rowKey, SOURCE, type GridSort } from './grid';
import { GridRow } from './GridRow';
import { HeaderRow } from './HeaderRow';
import { useGridLayout } from './useGridLayout';
import { useGridTable } from './useGridTable';
import { useGridFocus } from './useGridFocus';
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
 * every field of the record and where it came from (file, sheet, row). It is a WAI-ARIA grid:
 * `aria-rowcount` / `aria-rowindex` tell screen readers where a drawn row sits, the grid is one Tab
 * stop and the arrow keys move its active cell (see useGridFocus).
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
  const { layout, headers, ids, pinnedCount, rowVirtualizer, columnVirtualizer, columnCount, totalWidth } =
    useGridLayout(grid, rows.length, scrollRef);
  const { table } = grid;
  const focus = useGridFocus({
    rows,
    columnCount,
    pinnedCount,
    rowVirtualizer,
    columnVirtualizer,
    scrollRef,
    onHeader: (at) => {
      const id = ids[at - 1];
      if (id && onSort && id !== SOURCE.file && id !== SOURCE.sheet) onSort(id);
    },
    onResize: (at, step) => {
      const header = headers.get(ids[at - 1] ?? '');
      if (!header) return;
      const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, header.getSize() + step * RESIZE_STEP));
      table.setColumnSizing((current) => ({ ...current, [header.id]: width }));
    },
  });
  const { opened, openRow, closeDrawer, prefix, active } = focus;
  const openedRow = opened === null ? undefined : rows[opened];

  return (
    <>
      <div
        ref={scrollRef}
        className={classes.scroller}
        // One Tab stop: the arrow keys move the active cell inside (see useGridFocus).
        tabIndex={0}
        role="grid"
        aria-label={caption}
        aria-rowcount={rows.length + 1}
        aria-colcount={columnCount}
        aria-activedescendant={focus.activeId}
        aria-readonly
        {...focus.gridProps}
      >
        <div className={classes.table} style={{ width: totalWidth }}>
          <HeaderRow
            layout={layout}
            headers={headers}
            sort={sort}
            onSort={onSort}
            resizing={table.state.resizing}
            prefix={prefix}
            activeAt={active.row === -1 ? active.at : null}
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
                  prefix={prefix}
                  activeAt={active.row === virtualRow.index ? active.at : null}
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
