import { useState } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { GO_TO_ABOVE_PAGES, parseGoTo } from '../../lib/paging';

export interface PagerProps {
  /** Zero-based. */
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  disabled?: boolean;
  /** What the pages are of, for screen readers ('Results pages', 'Files pages'). */
  label: string;
}

/**
 * Previous, 'Page X of Y', Next, and above 10 pages a 'Go to' box (Enter jumps to a page from 1 to
 * the total; anything else is ignored and the box cleared).
 */
export function Pager({ page, totalPages, onPage, disabled = false, label }: PagerProps) {
  const pages = Math.max(1, totalPages);
  const [goTo, setGoTo] = useState('');
  return (
    <Group gap="xs" component="nav" aria-label={label} wrap="wrap">
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
      {pages > GO_TO_ABOVE_PAGES && (
        <TextInput
          size="xs"
          label="Go to"
          aria-label={`Go to page (1 to ${pages})`}
          styles={{
            root: { display: 'flex', alignItems: 'center', gap: 6 },
            label: { marginBottom: 0, whiteSpace: 'nowrap' },
            wrapper: { width: 72 },
          }}
          inputMode="numeric"
          placeholder={`1–${pages}`}
          value={goTo}
          disabled={disabled}
          onChange={(event) => setGoTo(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            const target = parseGoTo(goTo, pages);
            if (target !== null) onPage(target);
            setGoTo('');
          }}
        />
      )}
    </Group>
  );
}
