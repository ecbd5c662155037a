import { useEffect, useState } from 'react';
import { Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import type { AdminAccount } from '@sift/shared/contracts';
import { useAdminAccounts, useDeleteAccount, useSetAccountActive } from '../../api';
import { useMe } from '../../../account';
import { SameNameReview } from '../../../people';
import { AccountsTable } from '../AccountsTable/AccountsTable';
import { ConfirmDialog } from '../../../../components/ConfirmDialog/ConfirmDialog';
import { LoadError } from '../../../../components/LoadError/LoadError';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { Pager } from '../../../../components/Pager/Pager';
import { FullScreenLoader } from '../../../../components/FullScreenLoader/FullScreenLoader';
import { notify } from '../../../../ui/notify';
import { pageCount } from '../../../../lib/paging';
import { useIdSet } from '../../../../hooks/useIdSet';

/** Spec section 9: account list page size 10, page from 0, status filter 'all' by default. */
export const ACCOUNTS_PAGE_SIZE = 10;

const STATUS_FILTERS = [
  { value: 'all', label: 'All Accounts' },
  { value: 'active', label: 'Active Only' },
  { value: 'inactive', label: 'Inactive Only' },
] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number]['value'];

/** /admin: every account, sorted by full name, with activate/deactivate and delete. */
export function AccountsScreen() {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(0);
  const accounts = useAdminAccounts({
    page,
    size: ACCOUNTS_PAGE_SIZE,
    active: status === 'all' ? undefined : status === 'active',
  });
  const me = useMe(true);
  const setActive = useSetAccountActive();
  const deleteAccount = useDeleteAccount();
  const busy = useIdSet();
  const [confirming, setConfirming] = useState<AdminAccount | null>(null);
  const [reviewing, setReviewing] = useState<AdminAccount | null>(null);
  const emptyPage = !!accounts.data && !accounts.isPlaceholderData && accounts.data.content.length === 0;
  // The last account of a later page was deleted (or deactivated under a filter): step back.
  useEffect(() => {
    if (emptyPage && page > 0) setPage(page - 1);
  }, [emptyPage, page]);

  const toggle = (account: AdminAccount) => {
    const active = !account.active;
    busy.add(account.id);
    setActive.mutate(
      { id: account.id, active },
      {
        onSuccess: () =>
          notify.success(active ? 'Account activated successfully' : 'Account deactivated successfully'),
        onError: (error) => {
          console.error('Account update failed', error);
          notify.error(active ? 'Failed to activate account' : 'Failed to deactivate account');
        },
        onSettled: () => busy.remove(account.id),
      },
    );
  };

  const remove = (account: AdminAccount) => {
    setConfirming(null);
    busy.add(account.id);
    deleteAccount.mutate(account.id, {
      onSuccess: () => notify.success('Account deleted successfully'),
      onError: (error) => {
        console.error('Account delete failed', error);
        notify.error('Failed to delete account');
      },
      onSettled: () => busy.remove(account.id),
    });
  };

  const header = (
    <PageHeader title="User Accounts" description="Manage user accounts and permissions">
      <Group gap="md" align="flex-end">
        {accounts.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {accounts.data.content.length} of {accounts.data.totalElements} accounts
          </Text>
        )}
        <SegmentedControl
          aria-label="Status filter"
          data={STATUS_FILTERS.map((f) => ({ ...f }))}
          value={status}
          onChange={(value) => {
            setStatus(value as StatusFilter);
            setPage(0);
          }}
        />
      </Group>
    </PageHeader>
  );

  if (accounts.isPending) {
    return (
      <Stack gap="lg">
        {header}
        <FullScreenLoader label="Loading accounts..." fullHeight={false} />
      </Stack>
    );
  }
  if (accounts.isError && !accounts.data) {
    return (
      <Stack gap="lg">
        {header}
        <LoadError
          title="Error Loading Accounts"
          message="Failed to load user accounts. Please try again."
          onRetry={() => void accounts.refetch()}
        />
      </Stack>
    );
  }

  const { content, totalElements } = accounts.data;
  const totalPages = pageCount(totalElements, ACCOUNTS_PAGE_SIZE);
  const first = page * ACCOUNTS_PAGE_SIZE + 1;
  const last = page * ACCOUNTS_PAGE_SIZE + content.length;

  return (
    <Stack gap="lg">
      {header}
      {content.length === 0 ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap={4}>
            <Text fw={600}>No accounts found</Text>
            <Text c="dimmed" size="sm">
              {status === 'all' ? 'No user accounts available' : 'Try adjusting your filter criteria'}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <AccountsTable
          accounts={content}
          selfId={me.data?.id}
          busy={busy}
          onToggleActive={toggle}
          onDelete={setConfirming}
          onReviewPeople={setReviewing}
        />
      )}

      {totalElements > ACCOUNTS_PAGE_SIZE && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            Showing {first} to {last} of {totalElements} accounts
          </Text>
          <Pager page={page} totalPages={totalPages} onPage={setPage} label="Account pages" />
        </Group>
      )}

      <SameNameReview
        opened={reviewing !== null}
        onClose={() => setReviewing(null)}
        account={reviewing ? { id: reviewing.id, label: reviewing.email } : undefined}
      />
      <ConfirmDialog
        opened={confirming !== null}
        title="Delete account"
        message={
          confirming
            ? `Are you sure you want to delete the account ${confirming.email}? Their files, exports and upload sessions are deleted with it. This action cannot be undone.`
            : ''
        }
        confirmLabel="Delete"
        onConfirm={() => confirming && remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </Stack>
  );
}
