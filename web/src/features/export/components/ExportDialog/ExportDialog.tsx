import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { PreprocessingPreview, PreprocessingRule } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { notify } from '../../../../ui/notify';
import { rulesProblem, toRequestRules, type RuleDraft } from '../../preprocessing';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { PreprocessingRules } from './PreprocessingRules';
import { ColumnChecklist } from '../../../../components/ColumnChecklist/ColumnChecklist';
import type { ExportFormat } from '../../exportFilename';

/** Spec section 5: exports over this many records warn that they may take several minutes. */
export const LARGE_EXPORT_RECORDS = 10_000;

export interface ExportDialogProps {
  opened: boolean;
  onClose: () => void;
  /**
   * `rules`: the pre-processing rules to apply (null: none); `includeMetadata`: File, Sheet and Row
   * columns before the data (where each row came from).
   */
  onExport: (
    format: ExportFormat,
    filename: string,
    columns: string[],
    rules: PreprocessingRule[] | null,
    includeMetadata: boolean,
  ) => void;
  exporting: boolean;
  totalRecords: number;
  /** Shown as the filename placeholder (what the server names it when left empty). */
  defaultFilename: string;
  /** Every column that can be exported, in order. */
  columns: readonly string[];
  /** The columns checked when the dialog opens (the visible ones). */
  defaultColumns: readonly string[];
  /** How many files the search covers (said in the dialog). */
  fileCount?: number;
  /** Offer pre-processing (general search): previews the rules against the current search. */
  onPreview?: (rules: PreprocessingRule[]) => Promise<PreprocessingPreview>;
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
  onPreview,
  fileCount,
}: ExportDialogProps) {
  const [preprocessing, setPreprocessing] = useState(false);
  const [provenance, setProvenance] = useState(false);
  /** The export waiting for the large-export confirmation, if any. */
  const [confirmLarge, setConfirmLarge] = useState<(() => void) | null>(null);
  const [rules, setRules] = useState<RuleDraft[]>([]);
  const [preview, setPreview] = useState<PreprocessingPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const changeRules = (next: RuleDraft[]) => {
    setRules(next);
    setPreview(null); // a preview belongs to the rules it was made for
    setPreviewError(null);
  };
  const runPreview = async () => {
    if (!onPreview) return;
    setPreviewing(true);
    setPreviewError(null);
    try {
      setPreview(await onPreview(toRequestRules(rules)));
    } catch (error) {
      console.error('Pre-processing preview failed', error);
      setPreviewError(errorMessage(error, 'Preview failed. Please try again.'));
    } finally {
      setPreviewing(false);
    }
  };
  const [format, setFormat] = useState<ExportFormat>('XLSX');
  const [filename, setFilename] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(defaultColumns));
  // Each opening starts from the columns visible then, without the preview of an earlier search.
  const [wasOpened, setWasOpened] = useState(false);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setChosen(new Set(defaultColumns));
      setPreview(null);
    }
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
          if (onPreview && preprocessing) {
            const problem = rulesProblem(rules);
            if (problem) {
              notify.error(problem);
              return;
            }
          }
          const start = () =>
            onExport(
              format,
              filename,
              selected,
              onPreview && preprocessing ? toRequestRules(rules) : null,
              provenance,
            );
          // Spec section 5: exports over 10,000 records ask for confirmation first.
          if (large) setConfirmLarge(() => start);
          else start();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {totalRecords.toLocaleString()} {totalRecords === 1 ? 'record' : 'records'}
            {fileCount !== undefined &&
              ` from ${fileCount.toLocaleString()} ${fileCount === 1 ? 'file' : 'files'}`}{' '}
            will be exported.
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
            <Stack gap="sm">
              <Checkbox
                label="Add File, Sheet and Row columns (where each row came from)"
                checked={provenance}
                onChange={(event) => setProvenance(event.currentTarget.checked)}
              />
              <ColumnChecklist
                columns={columns}
                checked={chosen}
                onChange={setChosen}
                label="Columns to export"
              />
            </Stack>
          </Fieldset>
          {onPreview && (
            <Fieldset legend="Pre-processing" variant="filled">
              <PreprocessingRules
                enabled={preprocessing}
                onEnabled={setPreprocessing}
                rules={rules}
                onRules={changeRules}
                columns={columns}
                onPreview={() => void runPreview()}
                previewing={previewing}
                preview={preview}
                previewError={previewError}
              />
            </Fieldset>
          )}
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
      <ConfirmDialog
        opened={confirmLarge !== null}
        title="Large export"
        message={`This export has ${totalRecords.toLocaleString()} records and may take several minutes. Do not close the window until the download starts. Continue?`}
        confirmLabel="Export"
        confirmColor="blue"
        onConfirm={() => {
          const start = confirmLarge;
          setConfirmLarge(null);
          start?.();
        }}
        onCancel={() => setConfirmLarge(null)}
      />
    </Modal>
  );
}
