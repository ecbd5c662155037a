import { useId } from 'react';
import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { PeopleFilter, PeopleSearchResponse } from '@sift/shared/contracts';
import { formatCount } from '../../../../lib/format';
import classes from '../../../../components/FacetList/FacetList.module.css';

export type PeopleFacetName = keyof PeopleSearchResponse['facets'];

const TITLES: Record<PeopleFacetName, string> = {
  country: 'Country',
  lastYear: 'Year of last paper',
  journal: 'Journal',
};

export interface PeopleFacetsProps {
  facets: PeopleSearchResponse['facets'];
  /** The filter shown (a facet already chosen is not offered again). */
  chosen: PeopleFilter;
  /** A value clicked: narrow the search to it. */
  onPick: (facet: PeopleFacetName, value: string) => void;
}

/**
 * The facets of the people found: their countries, the year of their last paper and their
 * journals, each value with its people; a click narrows the search to it.
 */
export function PeopleFacets({ facets, chosen, onPick }: PeopleFacetsProps) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Text id={headingId} fw={600}>
          Facets
        </Text>
        {(Object.keys(TITLES) as PeopleFacetName[])
          .filter((facet) => chosen[facet] === undefined)
          .map((facet) => (
            <Stack key={facet} gap={4}>
              <Text size="sm" fw={500} id={`${headingId}-${facet}`}>
                {TITLES[facet]}
              </Text>
              {facets[facet].length === 0 ? (
                <Text size="xs" c="dimmed">
                  None given
                </Text>
              ) : (
                <ul className={classes.list} aria-labelledby={`${headingId}-${facet}`}>
                  {facets[facet].map((v) => (
                    <li key={v.value}>
                      <UnstyledButton
                        className={classes.value}
                        onClick={() => onPick(facet, v.value)}
                        aria-label={`${TITLES[facet]}: ${v.value}, ${formatCount(v.people)} people`}
                      >
                        <Text size="sm" truncate>
                          {v.value}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatCount(v.people)}
                        </Text>
                      </UnstyledButton>
                    </li>
                  ))}
                </ul>
              )}
            </Stack>
          ))}
      </Stack>
    </Paper>
  );
}
