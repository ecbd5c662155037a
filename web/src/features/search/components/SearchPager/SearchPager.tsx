import { Group, NativeSelect, Text } from '@mantine/core';
import { Pager } from '../../../../components/Pager/Pager';
import { resultsSummary, SEARCH_PAGE_SIZES } from '../../search';

export interface SearchPagerProps {
  /** Zero-based. */
  page: number;
  totalPages: number;
  size: number;
  totalRecords: number;
  onPage: (page: number) => void;
  /** With it, a 'Rows per page' choice among SEARCH_PAGE_SIZES. */
  onSize?: ((size: number) => void) | undefined;
  disabled?: boolean;
  /** Shown after the results summary (the results grid's empty-columns note). */
  note?: React.ReactNode;
}

/**
 * The results summary beside the Pager (Previous / Next, 'Page X of Y', the go-to box above 10
 * pages), and the rows-per-page choice.
 */
export function SearchPager({
  page,
  totalPages,
  size,
  totalRecords,
  onPage,
  onSize,
  disabled = false,
  note,
}: SearchPagerProps) {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="md" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite">
          {resultsSummary(page, size, totalRecords)}
        </Text>
        {note}
      </Group>
      <Group gap="sm" wrap="wrap">
        {onSize && (
          <NativeSelect
            size="xs"
            label="Rows per page"
            styles={{ root: { display: 'flex', alignItems: 'center', gap: 6 }, label: { fontWeight: 400 } }}
            data={SEARCH_PAGE_SIZES.map(String)}
            value={String(size)}
            disabled={disabled}
            onChange={(event) => onSize(Number(event.currentTarget.value))}
          />
        )}
        <Pager
          page={page}
          totalPages={totalPages}
          onPage={onPage}
          disabled={disabled}
          label="Results pages"
        />
      </Group>
    </Group>
  );
}
