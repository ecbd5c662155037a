import { useEffect, useMemo, type RefObject } from 'react';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { HEADER_HEIGHT, keyOf, MIN_WIDTH, ROW_HEIGHT, type GridHeader, type RowLayout } from './grid';
import type { useGridTable } from './useGridTable';

/** Rows and columns drawn beyond the visible ones, so a scroll never shows a blank edge. */
const ROW_OVERSCAN = 8;
const COLUMN_OVERSCAN = 2;
/** What the grid lays out for when its box has no size yet (hidden, or no layout engine). */
const FALLBACK_RECT: Rect = { width: 1280, height: 640 };

/** observeElementRect, but an element with no size yet reads as FALLBACK_RECT. */
function observeRect<T extends Element>(instance: Virtualizer<T, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.width && rect.height ? rect : FALLBACK_RECT));
}

/**
 * What the grid draws (TanStack Virtual): the rows and the unpinned columns in view of `scrollRef`,
 * and the layout every drawn row shares, the same object while nothing in it changes (so rows
 * already drawn are left alone as the page scrolls).
 */
export function useGridLayout(
  { table, columnDefs }: ReturnType<typeof useGridTable>,
  rowCount: number,
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  const pinnedHeaders = table.getStartLeafHeaders();
  const centerHeaders = table.getCenterLeafHeaders();
  const pinnedWidth = table.getStartTotalSize();
  const totalWidth = table.getTotalSize();

  const rowVirtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The rows start below the sticky header, and a row scrolled to is kept out from under it.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    overscan: ROW_OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: centerHeaders.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => centerHeaders[index]?.getSize() ?? MIN_WIDTH,
    paddingStart: pinnedWidth,
    // A column scrolled to is kept out from under the pinned one.
    scrollPaddingStart: pinnedWidth,
    overscan: COLUMN_OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });
  // A resized column moves every column after it.
  const { columnSizing } = table.state;
  useEffect(() => columnVirtualizer.measure(), [columnVirtualizer, columnSizing, pinnedWidth, columnDefs]);

  const virtualColumns = columnVirtualizer.getVirtualItems();
  const firstColumn = virtualColumns[0];
  const lastColumn = virtualColumns[virtualColumns.length - 1];
  const padStart = firstColumn ? firstColumn.start - pinnedWidth : 0;
  const padEnd = lastColumn ? columnVirtualizer.getTotalSize() - lastColumn.end : 0;
  const drawnCenter = virtualColumns.map((item) => ({ item, header: centerHeaders[item.index]! }));

  const cellsOf = (headers: { header: GridHeader; at: number }[]) =>
    headers.map(({ header, at }) => ({ id: header.id, key: keyOf(header.id), width: header.getSize(), at }));
  const pinnedCells = cellsOf(pinnedHeaders.map((header) => ({ header, at: 1 })));
  const centerCells = cellsOf(
    drawnCenter.map(({ item, header }) => ({ header, at: pinnedHeaders.length + item.index + 1 })),
  );
  const signature = JSON.stringify([pinnedCells, centerCells, padStart, padEnd, totalWidth]);
  const headers = useMemo(
    () => new Map([...pinnedHeaders, ...centerHeaders].map((h) => [h.id, h])),
    [pinnedHeaders, centerHeaders],
  );
  // Keyed by the signature, which holds every input.
  const layout = useMemo<RowLayout>(
    () => ({ pinned: pinnedCells, center: centerCells, padStart, padEnd, width: totalWidth }),
    [signature],
  );
  return {
    layout,
    headers,
    /** Every column's id by `aria-colindex` - 1 (pinned first). */
    ids: [...pinnedHeaders, ...centerHeaders].map((h) => h.id),
    pinnedCount: pinnedHeaders.length,
    rowVirtualizer,
    columnVirtualizer,
    columnCount: pinnedHeaders.length + centerHeaders.length,
    totalWidth,
  };
}
