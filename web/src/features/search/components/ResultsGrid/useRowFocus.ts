import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import type { ResultRow } from '@sift/shared/contracts';

/**
 * The row drawer and keyboard moves between rows: which row's drawer is open (a new page closes
 * it), closing it back to its row's button, and ArrowUp / ArrowDown / Home / End on a row's button
 * focusing another row's, scrolled into view first (it may not be drawn yet).
 */
export function useRowFocus(
  rows: readonly ResultRow[],
  rowVirtualizer: Virtualizer<HTMLDivElement, Element>,
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  const [opened, setOpened] = useState<number | null>(null);
  // A new page closes the drawer (its row is gone).
  useEffect(() => setOpened(null), [rows]);

  /** Focuses row `index`'s drawer button, scrolling it into view first. */
  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(rows.length - 1, index));
    rowVirtualizer.scrollToIndex(target, { align: 'auto' });
    const focus = (tries: number) => {
      const button = scrollRef.current?.querySelector<HTMLElement>(`[data-row-index="${target}"] button`);
      if (button) button.focus();
      else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    requestAnimationFrame(() => focus(5));
  };
  // Stable across renders (rows are memoised): reads the latest rows and scroll state.
  const latest = useRef({ count: rows.length, focusRow, opened });
  latest.current = { count: rows.length, focusRow, opened };
  const closeDrawer = useCallback(() => {
    const { opened: was, focusRow: focus } = latest.current;
    setOpened(null);
    if (was !== null) focus(was);
  }, []);
  const onRowKey = useCallback((event: KeyboardEvent, index: number) => {
    const { count, focusRow: focus } = latest.current;
    const to = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: count - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    focus(to);
  }, []);
  return { opened, openRow: setOpened, closeDrawer, onRowKey };
}
