import { Highlight, Text } from '@mantine/core';
import { matchedParts, ROW_META, type ResultRow } from '@sift/shared/contracts';
import { DataTable, type DataColumn } from '../../../../components/DataTable/DataTable';
import { cellText } from '../../search';

export interface ResultsTableProps {
  columns: readonly string[];
  rows: readonly ResultRow[];
  caption: string;
  /** Show the File and Sheet columns first (general search). */
  withSource?: boolean;
  /** The column the rows are sorted by, and how; with `onSort`, column headers sort on a click. */
  sort?: { column: string; order: 'asc' | 'desc' } | null;
  onSort?: (column: string) => void;
  /**
   * `terms`: column → the searched text. What it matched in that column's cells is marked, as the
   * search matched it (regardless of case and, unless `matchAccents`, accents).
   */
  highlights?: { terms: Readonly<Record<string, string>>; matchAccents?: boolean };
}

function rowKey(row: ResultRow, index: number): string {
  const fileId = row[ROW_META.fileId];
  const sheet = row[ROW_META.sheet];
  const rowNumber = row[ROW_META.rowNumber];
  return fileId !== undefined && rowNumber !== undefined
    ? `${fileId}/${sheet ?? ''}/${rowNumber}`
    : String(index);
}

// Headers stay on one line; long cells wrap within a readable width (and are clamped to 4 lines).
const HEADER_STYLE = { whiteSpace: 'nowrap' } as const;
const SOURCE_STYLE = { whiteSpace: 'nowrap', verticalAlign: 'top' } as const;
const CELL_STYLE = { minWidth: 200, maxWidth: 420, verticalAlign: 'top' } as const;

const sourceColumn = (header: string, key: string): DataColumn<ResultRow> => ({
  key: `source:${key}`,
  header,
  headerStyle: HEADER_STYLE,
  cellStyle: SOURCE_STYLE,
  render: (row) => cellText(row, key),
});

/** Search results, scrolling horizontally; empty cells are blank. */
export function ResultsTable({
  columns,
  rows,
  caption,
  withSource = true,
  sort,
  onSort,
  highlights,
}: ResultsTableProps) {
  const minWidth = Math.min(640, (columns.length + (withSource ? 2 : 0)) * 140);
  const dataColumns: DataColumn<ResultRow>[] = [
    ...(withSource ? [sourceColumn('File', ROW_META.fileName), sourceColumn('Sheet', ROW_META.sheet)] : []),
    ...columns.map((column): DataColumn<ResultRow> => ({
      key: column,
      header: column,
      headerStyle: HEADER_STYLE,
      cellStyle: CELL_STYLE,
      sort: onSort && {
        direction: sort?.column === column ? sort.order : null,
        onSort: () => onSort(column),
      },
      render: (row) => {
        const text = cellText(row, column);
        const term = highlights?.terms[column];
        const parts = term ? matchedParts(text, term, highlights.matchAccents) : [];
        return parts.length ? (
          // The parts are what matched, as written: Mantine's own accent folding would add more.
          <Highlight size="sm" lineClamp={4} title={text} highlight={parts} accentInsensitive={false}>
            {text}
          </Highlight>
        ) : (
          <Text size="sm" lineClamp={4} title={text}>
            {text}
          </Text>
        );
      },
    })),
  ];
  return (
    <DataTable
      caption={caption}
      columns={dataColumns}
      rows={rows}
      rowKey={rowKey}
      minWidth={minWidth}
      dense
    />
  );
}
