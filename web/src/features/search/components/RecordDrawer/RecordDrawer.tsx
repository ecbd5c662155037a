import { memo } from 'react';
import { ActionIcon, CopyButton, Drawer, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { ROW_META, type ResultRow } from '@sift/shared/contracts';
import { cellText } from '../../search';
import { MatchedText } from '../MatchedText/MatchedText';

const META_KEYS = new Set<string>(Object.values(ROW_META));

/**
 * A record's fields in order: `columns` first (the searched files' columns), then any other field
 * the row carries; blank fields are counted, not listed.
 */
export function recordFields(
  row: ResultRow,
  columns: readonly string[],
): { fields: { column: string; text: string }[]; blank: number } {
  const known = new Set(columns);
  const order = [...columns, ...Object.keys(row).filter((key) => !known.has(key) && !META_KEYS.has(key))];
  const fields: { column: string; text: string }[] = [];
  let blank = 0;
  for (const column of order) {
    if (!(column in row)) continue;
    const text = cellText(row, column);
    if (text.trim()) fields.push({ column, text });
    else blank += 1;
  }
  return { fields, blank };
}

export interface RecordDrawerProps {
  /** The record shown; undefined: the drawer is closed. */
  row: ResultRow | undefined;
  /** The row's position on the results page (one-based). */
  position: number;
  /** The searched files' columns, in order. */
  columns: readonly string[];
  highlights?: { terms: Readonly<Record<string, string>>; matchAccents?: boolean } | undefined;
  /** The drawer's title (default: the row's position on the results page). */
  title?: string | undefined;
  onClose: () => void;
}

/**
 * The row drawer: where a result row came from (file, sheet and the row's number in its sheet) and
 * every non-blank field of the record, whole and wrapped, with what the search matched marked and a
 * copy button each. Full width on a narrow screen.
 */
export const RecordDrawer = memo(function RecordDrawer({
  row,
  position,
  columns,
  highlights,
  title,
  onClose,
}: RecordDrawerProps) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const record = row ? recordFields(row, columns) : null;
  return (
    <Drawer
      opened={row !== undefined}
      onClose={onClose}
      position="right"
      size={narrow ? '100%' : 'lg'}
      title={<Text fw={600}>{title ?? `Row ${position} of the results`}</Text>}
      closeButtonProps={{ 'aria-label': 'Close record' }}
    >
      {row && record && (
        <Stack gap="md">
          <Table aria-label="Where this record came from" variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={110}>File</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{cellText(row, ROW_META.fileName)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Sheet</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{cellText(row, ROW_META.sheet)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Row in sheet</Table.Th>
                {/* An Authors row: the record's row in the uploaded file, not the Authors file's own. */}
                <Table.Td>
                  {cellText(
                    row,
                    row[ROW_META.sourceRow] !== undefined ? ROW_META.sourceRow : ROW_META.rowNumber,
                  )}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Stack gap="sm" component="dl" aria-label="Fields" m={0}>
            {record.fields.map(({ column, text }) => (
              <div key={column}>
                <Text component="dt" size="xs" c="dimmed" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {column}
                </Text>
                <Group component="dd" m={0} gap={4} wrap="nowrap" justify="space-between" align="flex-start">
                  <MatchedText
                    text={text}
                    term={highlights?.terms[column]}
                    matchAccents={highlights?.matchAccents}
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  />
                  <CopyButton value={text}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? 'Copied' : `Copy ${column}`} withArrow>
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          color={copied ? 'teal' : 'gray'}
                          onClick={copy}
                          aria-label={`Copy ${column}`}
                        >
                          {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                </Group>
              </div>
            ))}
          </Stack>
          {record.blank > 0 && (
            <Text size="sm" c="dimmed">
              {record.blank === 1 ? '1 blank field not shown.' : `${record.blank} blank fields not shown.`}
            </Text>
          )}
        </Stack>
      )}
    </Drawer>
  );
});
