import { useEffect, useMemo, useRef } from 'react';
import { useTable, type ColumnDef } from '@tanstack/react-table';
import type { ResultRow } from '@sift/shared/contracts';
import { cellText } from '../../search';
import { useKeptColumnWidths } from '../../columnWidths';
import {
  features,
  FIT_MAX_PINNED,
  FIT_MAX_WIDTH,
  fittedWidth,
  keyOf,
  MAX_WIDTH,
  MIN_WIDTH,
  rowKey,
  SOURCE,
} from './grid';

/** How many rows a fitted width looks at (the first ones of the page). */
const FIT_SAMPLE_ROWS = 60;
/** Room for the row's drawer button in the pinned column (px). */
const OPEN_BUTTON_WIDTH = 30;

/**
 * The grid's table (TanStack Table): a column per shown header (File and Sheet first with
 * `withSource`), the first column pinned, resizable by dragging. A column's width is the one this
 * person last gave it (kept per person in local storage, see columnWidths.ts), else fitted to its
 * header and the page's first rows; widths set by dragging are kept once the drag ends.
 */
export function useGridTable(columns: readonly string[], rows: readonly ResultRow[], withSource: boolean) {
  const kept = useKeptColumnWidths();
  const columnDefs = useMemo<ColumnDef<typeof features, ResultRow>[]>(() => {
    const shown = [
      ...(withSource
        ? [
            { id: SOURCE.file, header: 'File' },
            { id: SOURCE.sheet, header: 'Sheet' },
          ]
        : []),
      ...columns.map((column) => ({ id: column, header: column })),
    ];
    const widths = kept.read();
    const sample = rows.slice(0, FIT_SAMPLE_ROWS);
    return shown.map(({ id, header }, index) => {
      const pinned = index === 0;
      const texts = sample.map((row) => cellText(row, keyOf(id)));
      const fitted = pinned
        ? fittedWidth(header, texts, FIT_MAX_PINNED, OPEN_BUTTON_WIDTH)
        : fittedWidth(header, texts, FIT_MAX_WIDTH);
      return { id, header, size: widths[id] ?? fitted, minSize: MIN_WIDTH, maxSize: MAX_WIDTH };
    });
    // Fitted to a new page's rows or columns; kept widths are read then, not on every drag.
  }, [columns, rows, withSource, kept]);
  const pinnedId = columnDefs[0]?.id;
  const table = useTable(
    {
      features,
      columns: columnDefs,
      data: rows,
      getRowId: rowKey,
      columnResizeMode: 'onChange',
      state: { columnPinning: { start: pinnedId ? [pinnedId] : [], end: [] } },
    },
    (state) => ({ columnSizing: state.columnSizing, resizing: state.columnResizing.isResizingColumn }),
  );

  // Widths set by a person are kept once a drag ends (not at each step of it).
  const { columnSizing, resizing } = table.state;
  const saved = useRef(columnSizing);
  useEffect(() => {
    if (resizing || columnSizing === saved.current) return;
    saved.current = columnSizing;
    const changed = Object.fromEntries(Object.entries(columnSizing).filter(([, width]) => width > 0));
    if (Object.keys(changed).length) kept.keep(changed);
  }, [columnSizing, resizing, kept]);
  return { table, columnDefs };
}
