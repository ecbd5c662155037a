import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';

/** A screen's title (the page's one h1), its explanatory line, and optional controls on the right. */
export function PageHeader({
  title,
  description,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </div>
      {children}
    </Group>
  );
}
