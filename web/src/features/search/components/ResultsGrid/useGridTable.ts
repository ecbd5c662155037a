import { useMemo } from 'react';
import { useTable, type ColumnDef } from '@tanstack/react-table';
import type { ResultRow } from '@sift/shared/contracts';
import { features, MAX_WIDTH, MIN_WIDTH, rowKey, SOURCE } from './grid';

/** A starting width that fits the header's text, within bounds a person can widen later (px). */
function initialWidth(header: string): number {
  return Math.min(320, Math.max(120, header.length * 8 + 56));
}

/**
 * The grid's table (TanStack Table): a column per shown header (File and Sheet first with
 * `withSource`), sized to their header's text, resizable by dragging, the first column pinned.
 */
export function useGridTable(columns: readonly string[], rows: readonly ResultRow[], withSource: boolean) {
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
    return shown.map(({ id, header }) => ({
      id,
      header,
      size: initialWidth(header),
      minSize: MIN_WIDTH,
      maxSize: MAX_WIDTH,
    }));
  }, [columns, withSource]);
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
  return { table, columnDefs };
}
