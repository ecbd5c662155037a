import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { ResultRow } from '@sift/shared/contracts';
import { cellId, HEADER_HEIGHT, ROW_HEIGHT } from './grid';

/** The grid's active cell: `row` is the row's index on the page (-1: the header row), `at` its `aria-colindex`. */
export interface ActiveCell {
  row: number;
  at: number;
}

export interface GridFocusOptions {
  rows: readonly ResultRow[];
  columnCount: number;
  /** How many columns are pinned (always drawn, first). */
  pinnedCount: number;
  rowVirtualizer: Virtualizer<HTMLDivElement, Element>;
  columnVirtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Enter or Space on a column header (it sorts by that column, if it can). */
  onHeader: (at: number) => void;
  /** Shift+ArrowLeft / Shift+ArrowRight on a column header: narrow or widen it by `step` px. */
  onResize: (at: number, step: -1 | 1) => void;
}

/**
 * The grid's keyboard focus, as WAI-ARIA's grid pattern has it: the grid is one Tab stop and names
 * its active cell with `aria-activedescendant`; arrow keys move the active cell (Home / End to the
 * row's first and last cell, Ctrl+Home / Ctrl+End to the first and last row, PageUp / PageDown by a
 * screenful), scrolling it into view first since only the cells in view are drawn. Enter or Space
 * opens the row's drawer (on a header: sorts), Shift+arrows on a header resize its column. A click
 * makes the clicked cell active; focus that lands inside the grid (a click on a button) moves to
 * the grid itself. Closing the drawer gives the focus back to the grid, on the row it showed.
 */
export function useGridFocus({
  rows,
  columnCount,
  pinnedCount,
  rowVirtualizer,
  columnVirtualizer,
  scrollRef,
  onHeader,
  onResize,
}: GridFocusOptions) {
  const prefix = useId();
  const [active, setActive] = useState<ActiveCell>({ row: 0, at: 1 });
  const [opened, setOpened] = useState<number | null>(null);
  // A new page closes the drawer (its row is gone) and starts on its first row.
  useEffect(() => {
    setOpened(null);
    setActive((cell) => (cell.row > 0 ? { row: 0, at: cell.at } : cell));
  }, [rows]);

  const lastRow = rows.length - 1;
  const at = Math.max(1, Math.min(columnCount, active.at));
  const row = Math.max(-1, Math.min(lastRow, active.row));

  /** Makes a cell active and scrolls it into view (the header row is always in view). */
  const moveTo = (nextRow: number, nextAt: number) => {
    const r = Math.max(-1, Math.min(lastRow, nextRow));
    const c = Math.max(1, Math.min(columnCount, nextAt));
    setActive({ row: r, at: c });
    if (r >= 0) rowVirtualizer.scrollToIndex(r, { align: 'auto' });
    if (c > pinnedCount) columnVirtualizer.scrollToIndex(c - 1 - pinnedCount, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (columnCount === 0) return;
    const screenful = Math.max(
      1,
      Math.floor(((scrollRef.current?.clientHeight ?? 0) - HEADER_HEIGHT) / ROW_HEIGHT) - 1,
    );
    const ctrl = event.ctrlKey || event.metaKey;
    if (row === -1 && event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      onResize(at, event.key === 'ArrowLeft' ? -1 : 1);
      return;
    }
    const to: Record<string, [number, number] | undefined> = {
      ArrowDown: [row + 1, at],
      ArrowUp: [row - 1, at],
      ArrowRight: [row, at + 1],
      ArrowLeft: [row, at - 1],
      Home: ctrl ? [0, 1] : [row, 1],
      End: ctrl ? [lastRow, columnCount] : [row, columnCount],
      PageDown: [row + screenful, at],
      PageUp: [Math.max(0, row - screenful), at],
    };
    const target = to[event.key];
    if (target) {
      event.preventDefault();
      moveTo(target[0], target[1]);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (row === -1) onHeader(at);
      else if (row >= 0) setOpened(row);
    }
  };

  /** A click makes the clicked cell active (the header row's too). */
  const onMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const cell = target.closest('[aria-colindex]');
    const rowElement = target.closest('[aria-rowindex]');
    if (!cell || !rowElement) return;
    setActive({
      row: Number(rowElement.getAttribute('aria-rowindex')) - 2,
      at: Number(cell.getAttribute('aria-colindex')),
    });
  };

  /** Focus inside the grid (a clicked button) moves to the grid: it alone holds the keyboard. */
  const onFocus = (event: React.FocusEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) event.currentTarget.focus({ preventScroll: true });
  };

  // Stable across renders: reads the latest state.
  const latest = useRef({ opened, row, at, moveTo });
  latest.current = { opened, row, at, moveTo };
  const closeDrawer = useCallback(() => {
    const { opened: was, at: column, moveTo: move } = latest.current;
    setOpened(null);
    if (was === null) return;
    move(was, column);
    requestAnimationFrame(() => scrollRef.current?.focus({ preventScroll: true }));
  }, [scrollRef]);
  const openRow = useCallback((index: number) => setOpened(index), []);

  return {
    prefix,
    active: { row, at },
    activeId: rows.length || row === -1 ? cellId(prefix, row + 2, at) : undefined,
    opened,
    openRow,
    closeDrawer,
    gridProps: { onKeyDown, onMouseDown, onFocus },
  };
}
