import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Center, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { onboardRequestSchema, type Account } from '@sift/shared/contracts';
import { useOnboard } from '../../api';

export interface ProfileSetupPageProps {
  account: Account;
  productName: string;
  onLogout: () => void;
}

type FieldErrors = Partial<Record<'firstName' | 'lastName', string>>;

/** Spec section 2: the profile setup screen for an active account that is not onboarded yet. */
export function ProfileSetupPage({ account, productName, onLogout }: ProfileSetupPageProps) {
  const navigate = useNavigate();
  const onboard = useOnboard();
  const [firstName, setFirstName] = useState(account.firstName ?? '');
  const [lastName, setLastName] = useState(account.lastName ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Both messages show at once; the save call is made only when both fields pass (spec section 5).
    const parsed = onboardRequestSchema.safeParse({ firstName, lastName });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'firstName' || field === 'lastName') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    onboard.mutate(parsed.data, {
      onSuccess: () => void navigate('/dashboard', { replace: true }),
      // Spec section 8: a failed save is only logged.
      onError: (error) => console.error('Profile setup failed', error),
    });
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={520} w="100%">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                Welcome to {productName}
              </Title>
              <Text c="dimmed">Let's get you set up</Text>
            </div>
            <Title order={2} size="h4">
              Basic Information
            </Title>
            <TextInput
              label="First Name"
              withAsterisk
              required
              autoComplete="given-name"
              value={firstName}
              onChange={(event) => setFirstName(event.currentTarget.value)}
              error={errors.firstName}
            />
            <TextInput
              label="Last Name"
              withAsterisk
              required
              autoComplete="family-name"
              value={lastName}
              onChange={(event) => setLastName(event.currentTarget.value)}
              error={errors.lastName}
            />
            <Group justify="space-between" mt="sm">
              <Button variant="default" onClick={onLogout}>
                Log out
              </Button>
              <Button type="submit" disabled={onboard.isPending}>
                {onboard.isPending ? 'Saving...' : 'Complete Setup'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
