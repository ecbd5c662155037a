import { useId } from 'react';
import {
  Group,
  MultiSelect,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { exactCriterion, MAX_FACET_COLUMNS, type SearchFacet } from '@sift/shared/contracts';
import { facetChoices, facetLabel } from '../../columns';
import classes from '../../../../components/FacetList/FacetList.module.css';

export interface FacetsPanelProps {
  /** Every column of the screen (the choice of facet columns). */
  columns: readonly string[];
  /** The columns whose facets are shown. */
  chosen: readonly string[];
  onChoose: (columns: string[]) => void;
  /** The facets of the shown search (undefined while there are none yet). */
  facets: readonly SearchFacet[] | undefined;
  /** A value clicked: add it as a criterion of its column (its exact criterion: see exactCriterion). */
  onPick: (column: string, value: string) => void;
  disabled?: boolean;
  /** Drawn beside the results on wide screens (one facet under another there; see ColumnSearchSection). */
  aside?: boolean;
}

const count = new Intl.NumberFormat('en-US');

/**
 * Facets of a search: for each chosen column, its most frequent values among the matching rows with
 * their row counts (spellings the search folds together counted as one); clicking a value searches
 * its column for exactly that value, in double quotes, which finds the rows it counted. The columns are chosen in a multi-select
 * (the usual low-cardinality ones at first).
 */
export function FacetsPanel({
  columns,
  chosen,
  onChoose,
  facets,
  onPick,
  disabled = false,
  aside = false,
}: FacetsPanelProps) {
  const headingId = useId();
  const byColumn = new Map((facets ?? []).map((f) => [f.column, f]));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Text id={headingId} fw={600}>
            Facets
          </Text>
          <MultiSelect
            label="Facet columns"
            placeholder={chosen.length ? undefined : 'Choose columns...'}
            data={facetChoices(columns).map((value) => ({ value, label: facetLabel(value) }))}
            value={[...chosen]}
            onChange={onChoose}
            maxValues={MAX_FACET_COLUMNS}
            searchable
            clearable
            size="xs"
            w={{ base: '100%', sm: 420, ...(aside ? { lg: '100%' } : {}) }}
          />
        </Group>
        {chosen.length === 0 ? (
          <Text c="dimmed" size="sm">
            Choose columns to see their most frequent values in the results.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: aside ? 1 : 4 }} spacing="sm">
            {chosen.map((column) => {
              const facet = byColumn.get(column);
              const values = facet?.values;
              const label = facetLabel(column);
              // A domain searches its email column for `@domain`; a value, its column for exactly it.
              const pick = (value: string) =>
                facet?.searchColumn
                  ? onPick(facet.searchColumn, `@${value}`)
                  : onPick(column, exactCriterion(value));
              return (
                <div key={column} role="group" aria-label={`${label} facet`}>
                  <Text size="sm" fw={600} mb={4} truncate="end" title={label}>
                    {label}
                  </Text>
                  {values === undefined ? (
                    <Text size="xs" c="dimmed">
                      Loading...
                    </Text>
                  ) : values.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      No values in these results.
                    </Text>
                  ) : (
                    <ScrollArea.Autosize mah={200} type="auto">
                      <ul className={classes.list}>
                        {values.map(({ value, count: n }) => (
                          <li key={value}>
                            <UnstyledButton
                              className={classes.value}
                              onClick={() => pick(value)}
                              disabled={disabled}
                              aria-label={`${label}: ${value}, ${count.format(n)} ${n === 1 ? 'row' : 'rows'}`}
                              title={
                                facet?.searchColumn
                                  ? `Search ${facet.searchColumn} for "@${value}"`
                                  : `Search ${column} for exactly "${value}"`
                              }
                            >
                              <Text span size="xs" truncate="end">
                                {value}
                              </Text>
                              <Text span size="xs" c="dimmed">
                                {count.format(n)}
                              </Text>
                            </UnstyledButton>
                          </li>
                        ))}
                      </ul>
                    </ScrollArea.Autosize>
                  )}
                </div>
              );
            })}
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
