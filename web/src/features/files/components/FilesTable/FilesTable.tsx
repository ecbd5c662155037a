import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconReport, IconTrash } from '@tabler/icons-react';
import type { FileRecord } from '@sift/shared/contracts';
import {
  DataTable,
  type DataColumn,
  type DataTableSelection,
} from '../../../../components/DataTable/DataTable';
import { FileTypeBadge, StatusBadge } from '../../../../components/StatusBadge/StatusBadge';
import { formatCount, formatDateTime } from '../../../../lib/format';

export interface FilesTableProps {
  files: readonly FileRecord[];
  selection: DataTableSelection<FileRecord>;
  /** Files whose delete is under way (their button spins). */
  deleting: { has: (id: string) => boolean };
  /** Every delete button is disabled (a bulk delete is running). */
  deleteDisabled: boolean;
  onDelete: (file: FileRecord) => void;
  /** Opens a PROCESSED file's import report. */
  onReport?: (file: FileRecord) => void;
}

/** A cell holding a badge: as wide as the badge, never narrower. */
const BADGE_CELL = { whiteSpace: 'nowrap', width: '1%' } as const;

/**
 * One page of the account's files: type, status (with why a file failed), counts, upload time, the
 * import report and delete.
 */
export function FilesTable({
  files,
  selection,
  deleting,
  deleteDisabled,
  onDelete,
  onReport,
}: FilesTableProps) {
  const columns: DataColumn<FileRecord>[] = [
    // Badges keep their width: a failed file's long reason in the File column once squeezed them
    // to "A…" and "PRO…".
    {
      key: 'type',
      header: 'Type',
      cellStyle: BADGE_CELL,
      render: (file) => <FileTypeBadge fileType={file.fileType} />,
    },
    {
      key: 'status',
      header: 'Status',
      cellStyle: BADGE_CELL,
      render: (file) => <StatusBadge status={file.status} />,
    },
    {
      key: 'file',
      header: 'File',
      render: (file) => (
        <>
          <Text fw={500} style={{ wordBreak: 'break-word' }}>
            {file.originalFilename}
          </Text>
          {file.status !== 'PROCESSING' && file.status !== 'PROCESSED' && file.errorMessage && (
            <Text size="sm" c="red">
              {file.errorMessage}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'rows',
      header: 'Rows',
      align: 'right',
      render: (file) => formatCount(file.totalRows ?? file.rowCount),
    },
    { key: 'columns', header: 'Columns', align: 'right', render: (file) => formatCount(file.totalColumns) },
    {
      key: 'sheets',
      header: 'Sheets',
      align: 'right',
      render: (file) => formatCount(file.sheetNames?.length ?? 0),
    },
    { key: 'uploaded', header: 'Uploaded', render: (file) => formatDateTime(file.uploadDate) },
    {
      key: 'actions',
      header: 'Actions',
      hideHeader: true,
      render: (file) => {
        const busy = deleting.has(file.id);
        return (
          <Group justify="flex-end" gap="xs" wrap="nowrap">
            {onReport && file.status === 'PROCESSED' && (
              <Tooltip label="Import report">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Import report of ${file.originalFilename}`}
                  onClick={() => onReport(file)}
                >
                  <IconReport size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${file.originalFilename}`}
                loading={busy}
                disabled={busy || deleteDisabled}
                onClick={() => onDelete(file)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      },
    },
  ];
  return (
    <DataTable
      caption="Your uploaded files and the author files derived from them"
      columns={columns}
      rows={files}
      rowKey={(file) => file.id}
      minWidth={900}
      selection={selection}
    />
  );
}
