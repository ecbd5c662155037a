import { Avatar, Badge, Button, Group, Text } from '@mantine/core';
import type { AdminAccount } from '@sift/shared/contracts';
import { DataTable, type DataColumn } from '../../../../components/DataTable/DataTable';
import { initials } from '../../../../lib/format';

/** First and last name, or '' when the account has neither. */
const fullName = (account: AdminAccount) => `${account.firstName ?? ''} ${account.lastName ?? ''}`.trim();

export interface AccountsTableProps {
  accounts: readonly AdminAccount[];
  /** The signed-in administrator's own account: offered no Deactivate or Delete. */
  selfId: string | undefined;
  /** Accounts with a change under way (their buttons wait). */
  busy: { has: (id: string) => boolean };
  onToggleActive: (account: AdminAccount) => void;
  onDelete: (account: AdminAccount) => void;
  /** Opens the review of the account's people offered as the same name. */
  onReviewPeople: (account: AdminAccount) => void;
}

/** One page of accounts: who, email, active or not, onboarded or not, and the admin's actions. */
export function AccountsTable({
  accounts,
  selfId,
  busy,
  onToggleActive,
  onDelete,
  onReviewPeople,
}: AccountsTableProps) {
  const columns: DataColumn<AdminAccount>[] = [
    {
      key: 'user',
      header: 'User',
      render: (account) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar color="blue" radius="xl" size="md" aria-hidden>
            {initials(account.firstName, account.lastName)}
          </Avatar>
          <div>
            <Text fw={600} size="sm">
              {fullName(account) || 'Unnamed account'}
            </Text>
            <Text size="xs" c="dimmed">
              ID: {account.id}
            </Text>
          </div>
        </Group>
      ),
    },
    {
      key: 'email',
      header: 'Email',
      cellStyle: { wordBreak: 'break-all' },
      render: (account) => account.email,
    },
    {
      key: 'status',
      header: 'Status',
      render: (account) => stateBadge(account.active, ['green', 'Active'], ['red', 'Inactive']),
    },
    {
      key: 'onboarding',
      header: 'Onboarding',
      render: (account) => stateBadge(account.onboarded, ['blue', 'Onboarded'], ['yellow', 'Pending']),
    },
    {
      key: 'actions',
      header: 'Actions',
      hideHeader: true,
      render: (account) => {
        const name = fullName(account) || account.email;
        const working = busy.has(account.id);
        if (account.id === selfId) {
          return (
            <Text size="xs" c="dimmed" ta="right">
              Your account
            </Text>
          );
        }
        return (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              aria-label={`Review the people of ${name} offered as the same name`}
              onClick={() => onReviewPeople(account)}
            >
              People
            </Button>
            <Button
              size="xs"
              variant="light"
              color={account.active ? 'orange' : 'green'}
              loading={working}
              aria-label={`${account.active ? 'Deactivate' : 'Activate'} ${name}`}
              onClick={() => onToggleActive(account)}
            >
              {account.active ? 'Deactivate' : 'Activate'}
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              disabled={working}
              aria-label={`Delete ${name}`}
              onClick={() => onDelete(account)}
            >
              Delete
            </Button>
          </Group>
        );
      },
    },
  ];
  return (
    <DataTable
      caption="User accounts, sorted by full name"
      columns={columns}
      rows={accounts}
      rowKey={(account) => account.id}
      minWidth={820}
    />
  );
}

/** A light badge saying which of two states an account is in: `[color, label]` for each. */
function stateBadge(on: boolean, yes: [string, string], no: [string, string]) {
  const [color, label] = on ? yes : no;
  return (
    <Badge color={color} variant="light">
      {label}
    </Badge>
  );
}
