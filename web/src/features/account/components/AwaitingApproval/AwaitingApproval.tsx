import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notify } from '../../../../ui/notify';

export interface AwaitingApprovalPageProps {
  onRecheck: () => Promise<{ isError: boolean }>;
  rechecking: boolean;
  onLogout: () => void;
}

/** Spec section 2: shown while the account is inactive. */
export function AwaitingApprovalPage({ onRecheck, rechecking, onLogout }: AwaitingApprovalPageProps) {
  const recheck = async () => {
    const result = await onRecheck().catch(() => ({ isError: true }));
    if (result.isError) notify.error('Failed to check status. Please try again.');
    else notify.success('Status checked successfully');
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={520} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            Awaiting Approval
          </Title>
          <Text>Your account is inactive and awaiting administrator approval.</Text>
          <Text c="dimmed" size="sm">
            If you have been waiting for a while, please contact your administrator to activate your account.
          </Text>
          <Group>
            <Button onClick={() => void recheck()} loading={rechecking}>
              Recheck Status
            </Button>
            <Button variant="default" onClick={onLogout}>
              Logout
            </Button>
          </Group>
          <Text size="sm">
            Account Status:{' '}
            <Text span fw={700} c="red">
              Inactive
            </Text>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
