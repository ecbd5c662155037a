import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { PreprocessingPreview } from '@sift/shared/contracts';
import { newRule, PREVIEW_EXAMPLES, PREVIEW_PAIRS, rulesProblem, type RuleDraft } from '../../preprocessing';

export interface PreprocessingRulesProps {
  enabled: boolean;
  onEnabled: (enabled: boolean) => void;
  rules: RuleDraft[];
  onRules: (rules: RuleDraft[]) => void;
  columns: readonly string[];
  onPreview: () => void;
  previewing: boolean;
  preview: PreprocessingPreview | null;
  previewError: string | null;
}

/**
 * The export dialog's pre-processing: split rules (source and target column, delimiter; each row
 * becomes one row per pair, paired by position or, on request, by name) and a preview of the counts with 2 examples of up to
 * 3 pairs each.
 */
export function PreprocessingRules({
  enabled,
  onEnabled,
  rules,
  onRules,
  columns,
  onPreview,
  previewing,
  preview,
  previewError,
}: PreprocessingRulesProps) {
  const update = (id: string, change: Partial<RuleDraft>) =>
    onRules(rules.map((rule) => (rule.id === id ? { ...rule, ...change } : rule)));
  const problem = enabled ? rulesProblem(rules) : null;
  const options = columns.map((column) => ({ value: column, label: column }));

  return (
    <Stack gap="sm">
      <Switch
        label="Enable pre-processing"
        description="Split a column and its partner column on a delimiter: one exported row per pair, paired by position."
        checked={enabled}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          onEnabled(on);
          if (on && rules.length === 0) onRules([newRule(1)]);
        }}
      />
      {enabled && (
        <>
          {rules.map((rule, index) => (
            <Paper
              key={rule.id}
              withBorder
              p="sm"
              radius="md"
              component="fieldset"
              aria-label={rule.name || `Rule ${index + 1}`}
            >
              <Stack gap="xs">
                <Group gap="xs" wrap="nowrap" align="flex-end">
                  <TextInput
                    label="Rule name"
                    size="xs"
                    style={{ flex: 1 }}
                    value={rule.name}
                    onChange={(event) => update(rule.id, { name: event.currentTarget.value })}
                  />
                  <Checkbox
                    label="Enabled"
                    size="xs"
                    mb={6}
                    checked={rule.enabled}
                    onChange={(event) => update(rule.id, { enabled: event.currentTarget.checked })}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mb={2}
                    aria-label={`Remove ${rule.name || `Rule ${index + 1}`}`}
                    onClick={() => onRules(rules.filter((r) => r.id !== rule.id))}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
                <Group gap="xs" grow align="flex-end">
                  <Select
                    label="Source column"
                    size="xs"
                    searchable
                    data={options}
                    value={rule.sourceColumn || null}
                    onChange={(value) => update(rule.id, { sourceColumn: value ?? '' })}
                    comboboxProps={{ withinPortal: true }}
                  />
                  <Select
                    label="Target column"
                    size="xs"
                    searchable
                    data={options}
                    value={rule.targetColumn || null}
                    onChange={(value) => update(rule.id, { targetColumn: value ?? '' })}
                    comboboxProps={{ withinPortal: true }}
                  />
                  <TextInput
                    label="Delimiter"
                    size="xs"
                    maw={90}
                    value={rule.delimiter}
                    onChange={(event) => update(rule.id, { delimiter: event.currentTarget.value })}
                  />
                </Group>
                <Checkbox
                  label="Pair by name"
                  description="Give each target piece (an email) to the source piece (an author) it names, as author files do: email lists are often shorter than author lists."
                  size="xs"
                  checked={rule.pairing === 'name'}
                  onChange={(event) =>
                    update(rule.id, { pairing: event.currentTarget.checked ? 'name' : 'position' })
                  }
                />
              </Stack>
            </Paper>
          ))}
          <Group justify="space-between">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => onRules([...rules, newRule(rules.length + 1)])}
            >
              Add Rule
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={onPreview}
              loading={previewing}
              disabled={problem !== null}
            >
              Preview
            </Button>
          </Group>
          {problem && (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          )}
          {previewError && (
            <Alert color="red" role="alert" p="xs">
              {previewError}
            </Alert>
          )}
          {preview && <PreviewPanel preview={preview} />}
        </>
      )}
    </Stack>
  );
}

function PreviewPanel({ preview }: { preview: PreprocessingPreview }) {
  return (
    <Stack gap="xs" role="status" aria-label="Pre-processing preview">
      <Text size="sm">
        {preview.originalCount.toLocaleString()} rows become {preview.processedCount.toLocaleString()} rows
        after pre-processing.
      </Text>
      {preview.expansionDetails.slice(0, PREVIEW_EXAMPLES).map((detail) => (
        <Paper key={`${detail.ruleName}-${detail.rowIndex}`} withBorder p="xs" radius="sm">
          <Text size="xs" c="dimmed">
            {detail.ruleName}, row {detail.rowIndex + 1}: {detail.sourceColumn} → {detail.targetColumn}
          </Text>
          <Table fz="xs" verticalSpacing={2} withRowBorders={false}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{detail.sourceColumn}</Table.Th>
                <Table.Th>{detail.targetColumn}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.matchedPairs.slice(0, PREVIEW_PAIRS).map((pair, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{pair.source}</Table.Td>
                  <Table.Td>{pair.target}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
    </Stack>
  );
}
