import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { IconLayoutSidebarRightExpand } from '@tabler/icons-react';
import {
  columnPinningFeature,
  columnResizingFeature,
  columnSizingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Header,
} from '@tanstack/react-table';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';
import { ARIA_SORT, SortButton } from '../../../../components/DataTable/DataTable';
import { cellText } from '../../search';
import { MatchedText } from '../MatchedText/MatchedText';
import { RecordDrawer } from '../RecordDrawer/RecordDrawer';
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
  sort?: { column: string; order: 'asc' | 'desc' } | null;
  onSort?: (column: string) => void;
  /**
   * `terms`: column → the searched text. What it matched in that column's cells is marked, as the
   * search matched it (regardless of case and, unless `matchAccents`, accents).
   */
  highlights?: { terms: Readonly<Record<string, string>>; matchAccents?: boolean };
}

/** A compact row: one line of text (px). */
export const ROW_HEIGHT = 33;
/** Rows and columns drawn beyond the visible ones, so a scroll never shows a blank edge. */
const ROW_OVERSCAN = 12;
const COLUMN_OVERSCAN = 3;
/** What the grid lays out for when its box has no size yet (hidden, or no layout engine). */
const FALLBACK_RECT: Rect = { width: 1280, height: 640 };
/** Arrow keys on a column's resize handle move its edge by this much (px). */
const RESIZE_STEP = 16;
const MIN_WIDTH = 64;
const MAX_WIDTH = 1200;

const features = tableFeatures({ columnSizingFeature, columnResizingFeature, columnPinningFeature });
type GridHeader = Header<typeof features, ResultRow, unknown>;

const SOURCE = { file: `source:${ROW_META.fileName}`, sheet: `source:${ROW_META.sheet}` } as const;

/** The cell key of a column id: source columns read the ROW_META keys, the others their own name. */
function keyOf(id: string): string {
  return id === SOURCE.file ? ROW_META.fileName : id === SOURCE.sheet ? ROW_META.sheet : id;
}

/** A starting width that fits the header's text, within bounds a person can widen later (px). */
function initialWidth(header: string): number {
  return Math.min(320, Math.max(120, header.length * 8 + 56));
}

function rowKey(row: ResultRow, index: number): string {
  const fileId = row[ROW_META.fileId];
  const sheet = row[ROW_META.sheet];
  const rowNumber = row[ROW_META.rowNumber];
  return fileId !== undefined && rowNumber !== undefined
    ? `${fileId}/${sheet ?? ''}/${rowNumber}`
    : String(index);
}

/** observeElementRect, but an element with no size yet reads as FALLBACK_RECT. */
function observeRect<T extends Element>(instance: Virtualizer<T, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) => cb(rect.width && rect.height ? rect : FALLBACK_RECT));
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

  const scrollRef = useRef<HTMLDivElement>(null);
  const pinnedHeaders = table.getStartLeafHeaders();
  const centerHeaders = table.getCenterLeafHeaders();
  const pinnedWidth = table.getStartTotalSize();
  const totalWidth = table.getTotalSize();

  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
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
  const columnCount = pinnedHeaders.length + centerHeaders.length;

  const [opened, setOpened] = useState<number | null>(null);
  const openedRow = opened === null ? undefined : rows[opened];
  // A new page closes the drawer (its row is gone).
  useEffect(() => setOpened(null), [rows]);

  /** Focuses row `index`'s drawer button, scrolling it into view first (it may not be drawn yet). */
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

  // What every drawn row lays out, the same object while nothing in it changes (see GridRow).
  const cellsOf = (headers: { header: GridHeader; at: number }[]) =>
    headers.map(({ header, at }) => ({ id: header.id, key: keyOf(header.id), width: header.getSize(), at }));
  const pinnedCells = cellsOf(pinnedHeaders.map((header) => ({ header, at: 1 })));
  const centerCells = cellsOf(
    drawnCenter.map(({ item, header }) => ({ header, at: pinnedHeaders.length + item.index + 1 })),
  );
  const signature = JSON.stringify([pinnedCells, centerCells, padStart, padEnd, totalWidth]);
  const headerById = useMemo(
    () => new Map([...pinnedHeaders, ...centerHeaders].map((h) => [h.id, h])),
    [pinnedHeaders, centerHeaders],
  );
  // Keyed by the signature, which holds every input.
  const layout = useMemo<RowLayout>(
    () => ({ pinned: pinnedCells, center: centerCells, padStart, padEnd, width: totalWidth }),
    [signature],
  );

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
            headers={headerById}
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
                  onOpen={setOpened}
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

/** One drawn cell: its column, the key of its value in a row, width (px) and `aria-colindex`. */
interface CellLayout {
  id: string;
  key: string;
  width: number;
  at: number;
}

/** What every drawn row lays out: the pinned cells, the drawn others between their pads, its width. */
interface RowLayout {
  pinned: CellLayout[];
  center: CellLayout[];
  padStart: number;
  padEnd: number;
  width: number;
}

/**
 * A row of the grid. Memoised: while the page scrolls, rows already drawn are left alone (same row,
 * position, layout and highlights) and only the rows coming into view are drawn.
 */
const GridRow = memo(function GridRow({
  row,
  index,
  start,
  layout,
  highlights,
  onOpen,
  onKey,
}: {
  row: ResultRow;
  index: number;
  start: number;
  layout: RowLayout;
  highlights: ResultsGridProps['highlights'];
  onOpen: (index: number) => void;
  onKey: (event: KeyboardEvent, index: number) => void;
}) {
  // One line each, the whole value in the title; plain spans unless something is marked.
  const text = (cell: CellLayout) => (
    <MatchedText
      component="span"
      truncate
      plainClassName={classes.text}
      text={cellText(row, cell.key)}
      term={highlights?.terms[cell.key]}
      matchAccents={highlights?.matchAccents}
    />
  );
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-row-index={index}
      className={`${classes.bodyRow} ${index % 2 ? classes.striped : ''}`}
      style={{ width: layout.width, transform: `translateY(${start}px)` }}
      onClick={(event) => {
        // A click on the row opens its drawer, unless it selected text to copy.
        if (!window.getSelection()?.toString() && !(event.target as HTMLElement).closest('button'))
          onOpen(index);
      }}
    >
      {layout.pinned.map((cell) => (
        <div
          key={cell.id}
          role="cell"
          aria-colindex={cell.at}
          className={`${classes.cell} ${classes.pinned}`}
          style={{ width: cell.width }}
        >
          <button
            type="button"
            className={classes.open}
            aria-label={`Open row ${index + 1}`}
            title="Show the whole record"
            aria-haspopup="dialog"
            onClick={() => onOpen(index)}
            onKeyDown={(event) => onKey(event, index)}
          >
            <IconLayoutSidebarRightExpand size={16} aria-hidden />
          </button>
          {text(cell)}
        </div>
      ))}
      {layout.padStart > 0 && <div aria-hidden className={classes.pad} style={{ width: layout.padStart }} />}
      {layout.center.map((cell) => (
        <div
          key={cell.id}
          role="cell"
          aria-colindex={cell.at}
          className={classes.cell}
          style={{ width: cell.width }}
        >
          {text(cell)}
        </div>
      ))}
      {layout.padEnd > 0 && <div aria-hidden className={classes.pad} style={{ width: layout.padEnd }} />}
    </div>
  );
});

/**
 * The header row: the drawn columns' headers between their pads. Memoised like GridRow: a scroll
 * that draws no new column leaves it alone.
 */
const HeaderRow = memo(function HeaderRow({
  layout,
  headers,
  sort,
  onSort,
}: {
  layout: RowLayout;
  headers: ReadonlyMap<string, GridHeader>;
  sort: ResultsGridProps['sort'];
  onSort: ResultsGridProps['onSort'];
  /** The column being resized, if any (its edge is marked). */
  resizing: string | false;
}) {
  const cell = (c: CellLayout, pinned: boolean) => (
    <HeaderCell
      key={c.id}
      header={headers.get(c.id)!}
      index={c.at}
      pinned={pinned}
      sort={sort}
      onSort={onSort}
      withSort={c.id !== SOURCE.file && c.id !== SOURCE.sheet}
    />
  );
  return (
    <div role="rowgroup" className={classes.head}>
      <div role="row" aria-rowindex={1} className={classes.row} style={{ width: layout.width }}>
        {layout.pinned.map((c) => cell(c, true))}
        {layout.padStart > 0 && (
          <div aria-hidden className={classes.pad} style={{ width: layout.padStart }} />
        )}
        {layout.center.map((c) => cell(c, false))}
        {layout.padEnd > 0 && <div aria-hidden className={classes.pad} style={{ width: layout.padEnd }} />}
      </div>
    </div>
  );
});

/** A column header: its name (a sort button when sortable) and the edge that resizes it. */
function HeaderCell({
  header,
  index,
  pinned = false,
  sort,
  onSort,
  withSort,
}: {
  header: GridHeader;
  index: number;
  pinned?: boolean;
  sort: ResultsGridProps['sort'];
  onSort: ResultsGridProps['onSort'];
  withSort: boolean;
}) {
  const name = String(header.column.columnDef.header ?? header.id);
  const sortable = withSort && onSort;
  const direction = sort?.column === header.id ? sort.order : null;
  const resize = header.getResizeHandler();
  const width = header.getSize();
  const onResizeKey = (event: KeyboardEvent) => {
    const delta = { ArrowLeft: -RESIZE_STEP, ArrowRight: RESIZE_STEP }[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    const table = header.getContext().table;
    table.setColumnSizing((current) => ({
      ...current,
      [header.id]: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width + delta)),
    }));
  };
  return (
    <div
      role="columnheader"
      aria-colindex={index}
      aria-sort={sortable ? ARIA_SORT[direction ?? 'none'] : undefined}
      className={`${classes.headCell} ${pinned ? classes.pinned : ''}`}
      style={{ width }}
      title={name}
    >
      {sortable ? (
        <SortButton header={name} direction={direction} onSort={() => onSort(header.id)} />
      ) : (
        <span className={classes.headText}>{name}</span>
      )}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${name}`}
        aria-valuenow={width}
        aria-valuemin={MIN_WIDTH}
        aria-valuemax={MAX_WIDTH}
        tabIndex={0}
        className={classes.resizer}
        data-resizing={header.column.getIsResizing() || undefined}
        onMouseDown={resize}
        onTouchStart={resize}
        onDoubleClick={() => header.column.resetSize()}
        onKeyDown={onResizeKey}
      />
    </div>
  );
}
