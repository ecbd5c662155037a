import { Group, Text } from '@mantine/core';
import { Pager } from '../../../../components/Pager/Pager';
import { resultsSummary } from '../../search';

export interface SearchPagerProps {
  /** Zero-based. */
  page: number;
  totalPages: number;
  size: number;
  totalRecords: number;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** The results summary beside the Pager (Previous / Next, 'Page X of Y', the go-to box above 10 pages). */
export function SearchPager({
  page,
  totalPages,
  size,
  totalRecords,
  onPage,
  disabled = false,
}: SearchPagerProps) {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {resultsSummary(page, size, totalRecords)}
      </Text>
      <Pager page={page} totalPages={totalPages} onPage={onPage} disabled={disabled} label="Results pages" />
    </Group>
  );
}
