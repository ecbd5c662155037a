import { memo } from 'react';
import { ARIA_SORT, SortButton } from '../../../../components/DataTable/DataTable';
import { cellId, SOURCE, type CellLayout, type GridHeader, type GridSort, type RowLayout } from './grid';
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
  prefix,
  activeAt,
}: {
  layout: RowLayout;
  headers: ReadonlyMap<string, GridHeader>;
  sort: GridSort;
  onSort: ((column: string) => void) | undefined;
  /** The column being resized, if any (its edge is marked). */
  resizing: string | false;
  /** The grid's cell id prefix (see cellId). */
  prefix: string;
  /** The `aria-colindex` of the grid's active cell when it is in the header row. */
  activeAt: number | null;
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
      id={cellId(prefix, 1, c.at)}
      active={c.at === activeAt}
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

/**
 * A column header: its name (a sort button when sortable) and the edge that resizes it by dragging
 * (from the keyboard: Enter sorts and Shift+arrows resize while the header is the grid's active cell).
 */
function HeaderCell({
  header,
  index,
  pinned = false,
  sort,
  onSort,
  withSort,
  id,
  active,
}: {
  header: GridHeader;
  index: number;
  pinned?: boolean;
  sort: GridSort;
  onSort: ((column: string) => void) | undefined;
  withSort: boolean;
  id: string;
  active: boolean;
}) {
  const name = String(header.column.columnDef.header ?? header.id);
  const sortable = withSort && onSort;
  const direction = sort?.column === header.id ? sort.order : null;
  const resize = header.getResizeHandler();
  const width = header.getSize();
  return (
    <div
      role="columnheader"
      id={id}
      data-active={active || undefined}
      aria-colindex={index}
      aria-sort={sortable ? ARIA_SORT[direction ?? 'none'] : undefined}
      className={`${classes.headCell} ${pinned ? classes.pinned : ''}`}
      style={{ width }}
      title={name}
    >
      {sortable ? (
        <SortButton header={name} direction={direction} onSort={() => onSort(header.id)} tabIndex={-1} />
      ) : (
        <span className={classes.headText}>{name}</span>
      )}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${name}`}
        title={`Resize ${name} (Shift+Arrow keys on its header)`}
        className={classes.resizer}
        data-resizing={header.column.getIsResizing() || undefined}
        onMouseDown={resize}
        onTouchStart={resize}
        onDoubleClick={() => header.column.resetSize()}
      />
    </div>
  );
}
