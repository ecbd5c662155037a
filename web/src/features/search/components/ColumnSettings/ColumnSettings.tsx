import { Button, Group, Modal, Stack } from '@mantine/core';
import { ColumnChecklist } from '../../../../components/ColumnChecklist/ColumnChecklist';

export interface ColumnSettingsProps {
  opened: boolean;
  onClose: () => void;
  columns: readonly string[];
  visible: ReadonlySet<string>;
  onChange: (visible: Set<string>) => void;
}

/** The Column Settings dialog: which columns the search inputs and the results table show. */
export function ColumnSettings({ opened, onClose, columns, visible, onChange }: ColumnSettingsProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Column Settings" centered size="lg">
      <Stack gap="md">
        <ColumnChecklist
          columns={columns}
          checked={visible}
          onChange={onChange}
          label="Visible columns"
          markHidden
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
