import { Alert, Stack, Table } from '@mantine/core';
import type { DeletionResult } from '@sift/shared/contracts';
import { SEARCH_ENGINE_NAME, type Field } from '../../maintenance';

/** The fields of a deletion result as a two-column table, with its warnings. */
export function ResultPanel({
  title,
  result,
  fields,
}: {
  title: string;
  result: DeletionResult;
  fields: Field[];
}) {
  const warnings = [
    result.clickHouseError && `${SEARCH_ENGINE_NAME}: ${result.clickHouseError}`,
    result.uploadTrackingError && `Upload tracking: ${result.uploadTrackingError}`,
  ].filter(Boolean);
  return (
    <Stack gap="xs" role="status" aria-label={title}>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm">
        <Table.Tbody>
          {fields.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td ta="right">{value(result)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {warnings.map((warning) => (
        <Alert key={warning} color="yellow" title="Warning" p="xs">
          {warning}
        </Alert>
      ))}
    </Stack>
  );
}
