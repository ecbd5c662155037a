import { ActionIcon, Group, Paper, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconDownload,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconFileTypeXls,
  IconTrash,
} from '@tabler/icons-react';
import type { ExportHistoryEntry } from '@sift/shared/contracts';
import { downloadExport, useDeleteExport, useExportHistory } from '../../api';
import { queryPlaceholder } from '../../../../components/LoadError/LoadError';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { formatDate, formatTime, pluralCount } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';
import { useDeleteFlow } from '../../../../components/DeleteFlow/useDeleteFlow';
import { useIdSet } from '../../../../hooks/useIdSet';

/** The icon and colour of an export's format (XLSX, CSV or XLS). */
function FormatIcon({ format }: { format: string }) {
  const [Icon, color] =
    format === 'CSV'
      ? [IconFileTypeCsv, 'teal']
      : format === 'XLS'
        ? [IconFileTypeXls, 'green']
        : [IconFileSpreadsheet, 'green'];
  return (
    <ThemeIcon variant="light" color={color} size="lg" radius="md" aria-hidden>
      <Icon size={20} />
    </ThemeIcon>
  );
}

/** 'N records • format • N columns' (spec section 2, Export History). */
export function exportSummary(
  entry: Pick<ExportHistoryEntry, 'rowCount' | 'exportFormat' | 'exportCriteria'>,
): string {
  const columns = entry.exportCriteria?.columns;
  return [
    pluralCount(entry.rowCount ?? 0, 'record'),
    entry.exportFormat,
    pluralCount(typeof columns === 'number' ? columns : 0, 'column'),
  ].join(' • ');
}

/** An entry's file name, or 'Unknown File'. */
const name = (entry: ExportHistoryEntry) => entry.exportFilename || 'Unknown File';

/** /exports: the account's export history, newest first, with download and delete per entry. */
export function ExportsScreen() {
  const history = useExportHistory();
  const deleteExport = useDeleteExport();
  const downloading = useIdSet();
  const { ask, deleting, dialog } = useDeleteFlow<ExportHistoryEntry>({
    title: 'Delete export',
    name,
    run: (entry, callbacks) => deleteExport.mutate(entry.id, callbacks),
  });

  const download = async (entry: ExportHistoryEntry) => {
    downloading.add(entry.id);
    try {
      await downloadExport(entry);
      notify.success('Download started');
    } catch (error) {
      console.error('Download failed', error);
      notify.error('Download failed. Please try again.');
    } finally {
      downloading.remove(entry.id);
    }
  };

  const placeholder = queryPlaceholder(history, {
    title: 'Export History',
    message: 'Failed to load your export history. Please try again.',
  });
  if (placeholder || !history.data) return placeholder;

  const entries = history.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Export History"
        description="Every export you made, newest first. Download a file again or delete it."
      />

      {entries.length === 0 ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap={4}>
            <Text fw={600}>No export history yet</Text>
            <Text c="dimmed" size="sm">
              Export search results to see them here
            </Text>
          </Stack>
        </Paper>
      ) : (
        <Stack
          gap="sm"
          component="ul"
          aria-label="Exports"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {entries.map((entry) => (
            <Paper component="li" key={entry.id} withBorder radius="md" p="md" aria-label={name(entry)}>
              <Group justify="space-between" wrap="nowrap" gap="md">
                <Group wrap="nowrap" gap="md" style={{ minWidth: 0 }}>
                  <FormatIcon format={entry.exportFormat} />
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ wordBreak: 'break-word' }}>
                      {name(entry)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {exportSummary(entry)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDate(entry.createdAt)} at {formatTime(entry.createdAt)}
                    </Text>
                  </div>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Tooltip label="Download">
                    <ActionIcon
                      variant="light"
                      size="lg"
                      aria-label={`Download ${name(entry)}`}
                      loading={downloading.has(entry.id)}
                      onClick={() => void download(entry)}
                    >
                      <IconDownload size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon
                      variant="light"
                      color="red"
                      size="lg"
                      aria-label={`Delete ${name(entry)}`}
                      loading={deleting.has(entry.id)}
                      disabled={deleting.has(entry.id)}
                      onClick={() => ask(entry)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      {dialog}
    </Stack>
  );
}
