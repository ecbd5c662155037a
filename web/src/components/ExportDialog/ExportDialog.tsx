import { useState } from 'react';
import { Alert, Button, Fieldset, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notify } from '../../lib/notify';
import { ColumnChecklist } from '../ColumnChecklist/ColumnChecklist';
import type { ExportFormat } from '../../lib/exportFilename';

/** Spec section 5: exports over this many records warn that they may take several minutes. */
export const LARGE_EXPORT_RECORDS = 10_000;

export interface ExportDialogProps {
  opened: boolean;
  onClose: () => void;
  onExport: (format: ExportFormat, filename: string, columns: string[]) => void;
  exporting: boolean;
  totalRecords: number;
  /** Shown as the filename placeholder (what the server names it when left empty). */
  defaultFilename: string;
  /** Every column that can be exported, in order. */
  columns: readonly string[];
  /** The columns checked when the dialog opens (the visible ones). */
  defaultColumns: readonly string[];
}

/** Choose XLSX or CSV and an optional filename; the dialog is closed by the caller on success. */
export function ExportDialog({
  opened,
  onClose,
  onExport,
  exporting,
  totalRecords,
  defaultFilename,
  columns,
  defaultColumns,
}: ExportDialogProps) {
  const [format, setFormat] = useState<ExportFormat>('XLSX');
  const [filename, setFilename] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(defaultColumns));
  // Each opening starts from the columns visible then.
  const [openedWith, setOpenedWith] = useState<readonly string[] | null>(null);
  if (opened && openedWith !== defaultColumns) {
    setOpenedWith(defaultColumns);
    setChosen(new Set(defaultColumns));
  }
  const large = totalRecords > LARGE_EXPORT_RECORDS;

  return (
    <Modal
      opened={opened}
      onClose={() => !exporting && onClose()}
      title="Export Results"
      centered
      lockScroll
      size="lg"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (exporting) return;
          const selected = columns.filter((column) => chosen.has(column));
          if (selected.length === 0) {
            notify.error('Please select at least one column to export');
            return;
          }
          onExport(format, filename, selected);
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {totalRecords.toLocaleString()} {totalRecords === 1 ? 'record' : 'records'} will be exported.
          </Text>
          <Radio.Group
            label="Format"
            value={format}
            onChange={(value) => setFormat(value === 'CSV' ? 'CSV' : 'XLSX')}
          >
            <Group mt="xs">
              <Radio value="XLSX" label="Excel (XLSX)" />
              <Radio value="CSV" label="CSV" />
            </Group>
          </Radio.Group>
          <TextInput
            label="Filename (optional)"
            description={`The .${format.toLowerCase()} extension is added for you.`}
            placeholder={defaultFilename}
            value={filename}
            onChange={(event) => setFilename(event.currentTarget.value)}
            maxLength={200}
          />
          <Fieldset legend="Columns" variant="filled">
            <ColumnChecklist
              columns={columns}
              checked={chosen}
              onChange={setChosen}
              label="Columns to export"
            />
          </Fieldset>
          {large && (
            <Alert color="yellow" title="Large export">
              This export has more than {LARGE_EXPORT_RECORDS.toLocaleString()} records and may take several
              minutes. Do not close the window.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={exporting}>
              Cancel
            </Button>
            <Button type="submit" disabled={exporting}>
              {exporting ? 'Exporting...' : 'Export'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
