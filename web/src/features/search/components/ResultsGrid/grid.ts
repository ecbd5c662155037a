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
/** Arrow keys on a column's resize handle move its edge by this much (px). */
export const RESIZE_STEP = 16;
export const MIN_WIDTH = 64;
export const MAX_WIDTH = 1200;

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
