import { useState } from 'react';
import { Autocomplete, Loader } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useColumnSuggestions } from '../../api';
import type { SuggestionSource } from '../../../../api/queryKeys';

/** Wait after the last keystroke before asking for suggestions, in ms. */
export const SUGGESTION_DEBOUNCE_MS = 250;

export interface ColumnInputProps {
  column: string;
  value: string;
  onChange: (text: string) => void;
  source: SuggestionSource;
  disabled?: boolean;
}

const LABEL_STYLE = {
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  maxWidth: '100%',
} as const;

/**
 * One column's search input (label the column, placeholder 'Search in {column}'). While it has the
 * focus it offers up to 10 of the column's values containing what is typed (any value when empty),
 * most frequent first; choosing one fills the input.
 */
export function ColumnInput({ column, value, onChange, source, disabled = false }: ColumnInputProps) {
  const [focused, setFocused] = useState(false);
  const [query] = useDebouncedValue(value.trim(), SUGGESTION_DEBOUNCE_MS);
  const suggestions = useColumnSuggestions(source, column, query, focused && !disabled);
  const data = focused ? (suggestions.data ?? []).filter((v) => v.trim() !== '') : [];
  return (
    <Autocomplete
      label={column}
      title={column}
      placeholder={`Search in ${column}`}
      value={value}
      onChange={onChange}
      data={[...new Set(data)]}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      disabled={disabled}
      limit={10}
      filter={({ options }) => options}
      rightSection={focused && suggestions.isFetching ? <Loader size={14} aria-hidden /> : null}
      comboboxProps={{ withinPortal: true }}
      styles={{ label: LABEL_STYLE }}
    />
  );
}
