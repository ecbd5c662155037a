import { memo, type KeyboardEvent } from 'react';
import { ARIA_SORT, SortButton } from '../../../../components/DataTable/DataTable';
import {
  MAX_WIDTH,
  MIN_WIDTH,
  RESIZE_STEP,
  SOURCE,
  type CellLayout,
  type GridHeader,
  type GridSort,
  type RowLayout,
} from './grid';
import classes from './ResultsGrid.module.css';

/**
 * The header row: the drawn columns' headers between their pads. Memoised like GridRow: a scroll
 * that draws no new column leaves it alone.
 */
export const HeaderRow = memo(function HeaderRow({
  layout,
  headers,
  sort,
  onSort,
}: {
  layout: RowLayout;
  headers: ReadonlyMap<string, GridHeader>;
  sort: GridSort;
  onSort: ((column: string) => void) | undefined;
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
  sort: GridSort;
  onSort: ((column: string) => void) | undefined;
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
