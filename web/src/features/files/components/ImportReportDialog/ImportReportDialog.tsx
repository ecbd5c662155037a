import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  HEADER_ROW_MAX,
  IMPORT_FORMAT_LABELS,
  importSummary,
  isTextFormat,
  type FileRecord,
  type ImportReport,
} from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { formatCount } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';
import { useImportReport, useReingest } from '../../api';

export interface ImportReportDialogProps {
  /** The file whose report is shown (null: closed). */
  file: Pick<FileRecord, 'id' | 'originalFilename'> | null;
  onClose: () => void;
}

const DELIMITERS: Record<string, string> = { ',': 'Comma', ';': 'Semicolon', '\t': 'Tab', '|': 'Pipe' };
const METHODS: Record<string, string> = {
  bom: 'from its byte order mark',
  'utf-8': 'valid UTF-8',
  'utf-16': 'UTF-16 without a byte order mark',
  chosen: 'chosen by you',
  detector: 'detected',
};
const MATCHES: Record<string, string> = { name: 'By name', position: 'By position', unmatched: 'No author' };

/**
 * A file's import report (`GET /api/file/files/{id}/report`): how it was read (format, encoding and
 * how sure, delimiter), each sheet's header row, rows, columns, renamed and empty columns, warnings,
 * and for a file with an AUTHOR file how its emails were paired, with examples.
 */
export function ImportReportDialog({ file, onClose }: ImportReportDialogProps) {
  const report = useImportReport(file?.id ?? null);
  return (
    <Modal
      opened={file !== null}
      onClose={onClose}
      title={file ? `Import report: ${file.originalFilename}` : 'Import report'}
      size="xl"
    >
      {report.isPending ? (
        <Stack align="center" py="md" role="status" aria-live="polite">
          <Loader size="sm" />
          <Text size="sm">Loading the import report...</Text>
        </Stack>
      ) : report.isError ? (
        <Alert color="red" title="No report">
          {errorMessage(report.error, 'The import report could not be loaded. Please try again.')}
        </Alert>
      ) : (
        <>
          <ReportBody report={report.data} />
          <ReadAgain report={report.data} onDone={onClose} />
        </>
      )}
    </Modal>
  );
}

function ReportBody({ report }: { report: ImportReport }) {
  const facts: [string, string][] = [
    ['Format', IMPORT_FORMAT_LABELS[report.format] ?? report.format],
    ...(report.encoding
      ? ([
          [
            'Encoding',
            `${report.encoding.name} (${METHODS[report.encoding.method]}${
              report.encoding.method === 'detector' ? `, ${report.encoding.confidence}% sure` : ''
            }${report.encoding.detected ? `, as ${report.encoding.detected}` : ''})`,
          ],
        ] as [string, string][])
      : []),
    ...(report.delimiter !== undefined
      ? ([['Delimiter', DELIMITERS[report.delimiter] ?? report.delimiter]] as [string, string][])
      : []),
    ['Rows', formatCount(report.totalRows)],
    ['Sheets', formatCount(report.sheets.length)],
  ];
  return (
    <Stack gap="md">
      <Text fw={500}>{importSummary(report)}</Text>
      <Table variant="vertical" withTableBorder aria-label="How the file was read">
        <Table.Tbody>
          {facts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={140}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {report.warnings.length > 0 && (
        <Alert color="yellow" title="Warnings">
          <Stack gap={4}>
            {report.warnings.map((w) => (
              <Text key={w} size="sm">
                {w}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      <Title order={4}>Sheets</Title>
      <Table.ScrollContainer minWidth={560}>
        <Table withTableBorder striped aria-label="Sheets">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sheet</Table.Th>
              <Table.Th ta="right">Header row</Table.Th>
              <Table.Th ta="right">Rows</Table.Th>
              <Table.Th ta="right">Columns</Table.Th>
              <Table.Th>Renamed columns</Table.Th>
              <Table.Th>Empty columns</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.sheets.map((sheet) => (
              <Table.Tr key={sheet.name}>
                <Table.Td>{sheet.name}</Table.Td>
                <Table.Td ta="right">{sheet.headerRow}</Table.Td>
                <Table.Td ta="right">{formatCount(sheet.rows)}</Table.Td>
                <Table.Td ta="right">{formatCount(sheet.columns)}</Table.Td>
                <Table.Td>
                  {listed(
                    sheet.renamedColumns.map((r) => `${r.from.trim() ? `"${r.from}"` : 'blank'} → "${r.to}"`),
                    sheet.renamedTotal,
                    '; ',
                  )}
                </Table.Td>
                <Table.Td>{listed(sheet.emptyColumns, sheet.emptyTotal, ', ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {report.authors && (
        <>
          <Title order={4}>Author emails</Title>
          <Text size="sm">
            {formatCount(report.authors.rows)} author rows: {formatCount(report.authors.byName)} emails paired
            by name, {formatCount(report.authors.byPosition)} by position,{' '}
            {formatCount(report.authors.unmatched)} with no author; {formatCount(report.authors.withoutEmail)}{' '}
            authors without an email.
          </Text>
          {report.authors.examples.length > 0 && (
            <Table.ScrollContainer minWidth={480}>
              <Table withTableBorder aria-label="Examples of paired emails">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Paired</Table.Th>
                    <Table.Th>Author</Table.Th>
                    <Table.Th>Email</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.authors.examples.map((e, i) => (
                    <Table.Tr key={`${e.match}-${i}`}>
                      <Table.Td>{MATCHES[e.match]}</Table.Td>
                      <Table.Td>{e.author || '—'}</Table.Td>
                      <Table.Td>{e.email}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}

/** A report's list, 'None' when empty, with how many more there are past those listed. */
function listed(items: string[], total: number | undefined, separator: string): string {
  if (!items.length) return 'None';
  const more = (total ?? items.length) - items.length;
  return `${items.join(separator)}${more > 0 ? ` and ${formatCount(more)} more` : ''}`;
}

/** Encodings a person may choose for a text file, by their WHATWG names. */
const ENCODINGS: { value: string; label: string }[] = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'utf-16le', label: 'UTF-16 (little-endian)' },
  { value: 'utf-16be', label: 'UTF-16 (big-endian)' },
  { value: 'windows-1252', label: 'Windows-1252 (Western European)' },
  { value: 'windows-1250', label: 'Windows-1250 (Central European)' },
  { value: 'iso-8859-2', label: 'ISO-8859-2 (Central European)' },
  { value: 'windows-1251', label: 'Windows-1251 (Cyrillic)' },
  { value: 'windows-1253', label: 'Windows-1253 (Greek)' },
  { value: 'windows-1254', label: 'Windows-1254 (Turkish)' },
  { value: 'shift_jis', label: 'Shift_JIS (Japanese)' },
  { value: 'euc-jp', label: 'EUC-JP (Japanese)' },
  { value: 'gb18030', label: 'GB18030 (Chinese, simplified)' },
  { value: 'big5', label: 'Big5 (Chinese, traditional)' },
  { value: 'euc-kr', label: 'EUC-KR (Korean)' },
];

/**
 * "Read it again": the file ingested anew with another header row for a sheet (when a title row was
 * taken for the header, or the header was missed) and, for a text file, another encoding (when names
 * look garbled). The file is PROCESSING until its rows are back.
 */
function ReadAgain({ report, onDone }: { report: ImportReport; onDone: () => void }) {
  const reingest = useReingest();
  const text = isTextFormat(report.format);
  const [encoding, setEncoding] = useState<string | null>(null);
  const [rows, setRows] = useState<Record<string, number>>(() =>
    Object.fromEntries(report.sheets.map((s) => [s.name, s.headerRow])),
  );
  const headerRows = Object.fromEntries(
    report.sheets.flatMap((s) => (rows[s.name] !== s.headerRow ? [[s.name, rows[s.name]!]] : [])),
  );
  const changed = encoding !== null || Object.keys(headerRows).length > 0;
  const submit = () => {
    reingest.mutate(
      {
        fileId: report.fileId,
        read: {
          ...(encoding ? { encoding } : {}),
          ...(Object.keys(headerRows).length ? { headerRows } : {}),
        },
      },
      {
        onSuccess: () => {
          notify.success(`Reading ${report.originalFilename} again`);
          onDone();
        },
        onError: (e) => notify.error(errorMessage(e, 'The file could not be read again. Please try again.')),
      },
    );
  };
  return (
    <Stack gap="xs" mt="lg" component="section" aria-labelledby="read-again-title">
      <Title order={4} id="read-again-title">
        Read it again
      </Title>
      <Text size="sm" c="dimmed">
        If a title row was taken for the header, or names look garbled, choose the header row or the encoding
        and Sift ingests the file again.
      </Text>
      <Group align="flex-end" wrap="wrap">
        {report.sheets.slice(0, 20).map((s) => (
          <NumberInput
            key={s.name}
            label={report.sheets.length === 1 ? 'Header row' : `Header row of "${s.name}"`}
            min={1}
            max={HEADER_ROW_MAX}
            clampBehavior="strict"
            allowDecimal={false}
            w={report.sheets.length === 1 ? 140 : 220}
            value={rows[s.name]}
            onChange={(v) => setRows((r) => ({ ...r, [s.name]: typeof v === 'number' ? v : s.headerRow }))}
          />
        ))}
        {text && (
          <Select
            label="Encoding"
            placeholder={report.encoding ? `As detected (${report.encoding.name})` : 'As detected'}
            data={ENCODINGS}
            value={encoding}
            onChange={setEncoding}
            clearable
            w={280}
          />
        )}
        <Button onClick={submit} disabled={!changed} loading={reingest.isPending}>
          Read again
        </Button>
      </Group>
    </Stack>
  );
}
