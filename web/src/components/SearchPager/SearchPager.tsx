import { Button, Group, Text } from '@mantine/core';
import { resultsSummary } from '../../lib/search';

export interface SearchPagerProps {
  /** Zero-based. */
  page: number;
  totalPages: number;
  size: number;
  totalRecords: number;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** Previous / Next with 'Page X of Y' and the results summary. */
export function SearchPager({
  page,
  totalPages,
  size,
  totalRecords,
  onPage,
  disabled = false,
}: SearchPagerProps) {
  const pages = Math.max(1, totalPages);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {resultsSummary(page, size, totalRecords)}
      </Text>
      <Group gap="xs" component="nav" aria-label="Results pages">
        <Button variant="default" size="xs" onClick={() => onPage(page - 1)} disabled={disabled || page <= 0}>
          Previous
        </Button>
        <Text size="sm">
          Page {Math.min(page + 1, pages)} of {pages}
        </Text>
        <Button
          variant="default"
          size="xs"
          onClick={() => onPage(page + 1)}
          disabled={disabled || page + 1 >= pages}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
}
