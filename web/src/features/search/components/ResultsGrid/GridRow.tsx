import { memo } from 'react';
import { IconLayoutSidebarRightExpand } from '@tabler/icons-react';
import type { ResultRow } from '@sift/shared/contracts';
import { cellText } from '../../search';
import { MatchedText } from '../MatchedText/MatchedText';
import { cellId, HEADER_HEIGHT, type CellLayout, type GridHighlights, type RowLayout } from './grid';
import classes from './ResultsGrid.module.css';

/**
 * A row of the grid. Memoised: while the page scrolls, rows already drawn are left alone (same row,
 * position, layout and highlights) and only the rows coming into view are drawn.
 */
export const GridRow = memo(function GridRow({
  row,
  index,
  start,
  layout,
  highlights,
  onOpen,
  prefix,
  activeAt,
}: {
  row: ResultRow;
  index: number;
  start: number;
  layout: RowLayout;
  highlights: GridHighlights;
  onOpen: (index: number) => void;
  /** The grid's cell id prefix (see cellId). */
  prefix: string;
  /** The `aria-colindex` of the grid's active cell when it is in this row. */
  activeAt: number | null;
}) {
  const cellProps = (cell: CellLayout) => ({
    role: 'gridcell',
    id: cellId(prefix, index + 2, cell.at),
    'aria-colindex': cell.at,
    'data-active': cell.at === activeAt || undefined,
    style: { width: cell.width },
  });
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
      style={{ width: layout.width, transform: `translateY(${start - HEADER_HEIGHT}px)` }}
      onClick={(event) => {
        // A click on the row opens its drawer, unless it selected text to copy.
        if (!window.getSelection()?.toString() && !(event.target as HTMLElement).closest('button'))
          onOpen(index);
      }}
    >
      {layout.pinned.map((cell) => (
        <div key={cell.id} {...cellProps(cell)} className={`${classes.cell} ${classes.pinned}`}>
          <button
            type="button"
            className={classes.open}
            aria-label={`Open row ${index + 1}`}
            title="Show the whole record (Enter)"
            aria-haspopup="dialog"
            // The grid is the Tab stop: Enter on a row's cell opens it from the keyboard.
            tabIndex={-1}
            onClick={() => onOpen(index)}
          >
            <IconLayoutSidebarRightExpand size={16} aria-hidden />
          </button>
          {text(cell)}
        </div>
      ))}
      {layout.padStart > 0 && <div aria-hidden className={classes.pad} style={{ width: layout.padStart }} />}
      {layout.center.map((cell) => (
        <div key={cell.id} {...cellProps(cell)} className={classes.cell}>
          {text(cell)}
        </div>
      ))}
      {layout.padEnd > 0 && <div aria-hidden className={classes.pad} style={{ width: layout.padEnd }} />}
    </div>
  );
});
