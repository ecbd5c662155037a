/** What the ResultsGrid's pieces share: sizes, the table's features, the source columns, row layouts. */
import {
  columnPinningFeature,
  columnResizingFeature,
  columnSizingFeature,
  tableFeatures,
  type Header,
} from '@tanstack/react-table';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';

/** A compact row: one line of text (px). */
export const ROW_HEIGHT = 33;
/** The sticky header row's height (px): rows scrolled to are kept out from under it. */
export const HEADER_HEIGHT = 36;
/** Arrow keys on a column's resize handle move its edge by this much (px). */
export const RESIZE_STEP = 16;
export const MIN_WIDTH = 64;
export const MAX_WIDTH = 1200;
/** A fitted width stops here (a person can widen a column further by dragging). */
export const FIT_MAX_WIDTH = 360;
/** The pinned column's fitted width stops here (it also holds the row's drawer button). */
export const FIT_MAX_PINNED = 420;

/**
 * A width (px) that fits a column's header and most of its cells: the header's text with its sort
 * arrow, or the 90th percentile of `texts`' lengths (a few long cells do not widen a column by
 * themselves), at ~8 px a character of the grid's 14 px font; within MIN_WIDTH and `max`.
 */
export function fittedWidth(
  header: string,
  texts: readonly string[],
  max = FIT_MAX_WIDTH,
  extra = 0,
): number {
  const lengths = texts.map((t) => t.length).sort((a, b) => a - b);
  const p90 = lengths.length ? lengths[Math.floor((lengths.length - 1) * 0.9)]! : 0;
  const wanted = Math.max(header.length * 8 + 44, p90 * 8 + 28) + extra;
  return Math.round(Math.min(max, Math.max(MIN_WIDTH, wanted)));
}

/**
 * The DOM id of a drawn cell: the grid's id prefix, its `aria-rowindex` (1 = the header row) and
 * its `aria-colindex` (what the grid's `aria-activedescendant` names).
 */
export function cellId(prefix: string, rowIndex: number, colIndex: number): string {
  return `${prefix}-${rowIndex}-${colIndex}`;
}

export const features = tableFeatures({ columnSizingFeature, columnResizingFeature, columnPinningFeature });
export type GridHeader = Header<typeof features, ResultRow, unknown>;

/** The File and Sheet columns' ids (general search). */
export const SOURCE = { file: `source:${ROW_META.fileName}`, sheet: `source:${ROW_META.sheet}` } as const;

/** The cell key of a column id: source columns read the ROW_META keys, the others their own name. */
export function keyOf(id: string): string {
  return id === SOURCE.file ? ROW_META.fileName : id === SOURCE.sheet ? ROW_META.sheet : id;
}

/** A row's React key: its file, sheet and row number when it has them, else its index. */
export function rowKey(row: ResultRow, index: number): string {
  const fileId = row[ROW_META.fileId];
  const sheet = row[ROW_META.sheet];
  const rowNumber = row[ROW_META.rowNumber];
  return fileId !== undefined && rowNumber !== undefined
    ? `${fileId}/${sheet ?? ''}/${rowNumber}`
    : String(index);
}

/** One drawn cell: its column, the key of its value in a row, width (px) and `aria-colindex`. */
export interface CellLayout {
  id: string;
  key: string;
  width: number;
  at: number;
}

/** What every drawn row lays out: the pinned cells, the drawn others between their pads, its width. */
export interface RowLayout {
  pinned: CellLayout[];
  center: CellLayout[];
  padStart: number;
  padEnd: number;
  width: number;
}

/** What a cell's text is marked with: column → the searched text, and whether accents count. */
export type GridHighlights = { terms: Readonly<Record<string, string>>; matchAccents?: boolean } | undefined;

/** The column the rows are sorted by, and how. */
export type GridSort = { column: string; order: 'asc' | 'desc' } | null | undefined;
