import { Table, Text } from '@mantine/core';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';
import { cellText } from '../../lib/search';

export interface ResultsTableProps {
  columns: readonly string[];
  rows: readonly ResultRow[];
  caption: string;
  /** Show the File and Sheet columns first (general search). */
  withSource?: boolean;
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

/** Search results, scrolling horizontally; empty cells are blank. */
export function ResultsTable({ columns, rows, caption, withSource = true }: ResultsTableProps) {
  const minWidth = Math.min(640, (columns.length + (withSource ? 2 : 0)) * 140);
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table
        striped
        highlightOnHover
        withTableBorder
        withColumnBorders
        stickyHeader
        verticalSpacing="xs"
        fz="sm"
      >
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {withSource && (
              <Table.Th scope="col" style={HEADER_STYLE}>
                File
              </Table.Th>
            )}
            {withSource && (
              <Table.Th scope="col" style={HEADER_STYLE}>
                Sheet
              </Table.Th>
            )}
            {columns.map((column) => (
              <Table.Th key={column} scope="col" style={HEADER_STYLE}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)}>
              {withSource && <Table.Td style={SOURCE_STYLE}>{cellText(row, ROW_META.fileName)}</Table.Td>}
              {withSource && <Table.Td style={SOURCE_STYLE}>{cellText(row, ROW_META.sheet)}</Table.Td>}
              {columns.map((column) => (
                <Table.Td key={column} style={CELL_STYLE}>
                  <Text size="sm" lineClamp={4} title={cellText(row, column)}>
                    {cellText(row, column)}
                  </Text>
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
