import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import type { PersonSummary, SameNamePair } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { Pager } from '../../../../components/Pager/Pager';
import { pluralCount } from '../../../../lib/format';
import { usePersonDecisions, useSameNamePairs } from '../../api';
import { personLine } from '../../format';

/** Pairs a page of the review shows. */
const PAIRS_PAGE_SIZE = 10;

const EVIDENCE: [keyof SameNamePair['inCommon'], string][] = [
  ['coauthors', 'Co-authors'],
  ['affiliations', 'Affiliations'],
  ['journals', 'Journals'],
  ['keywords', 'Keywords'],
  ['countries', 'Countries'],
  ['files', 'Files'],
];

export interface SameNameReviewProps {
  opened: boolean;
  onClose: () => void;
  /** An account an administrator reviews; none: the signed-in owner's own people. */
  account?: { id: string; label: string };
}

/**
 * A dialog listing the pairs of people whose names fold alike but who share no email or
 * identifier (possibly the same researcher), each with what the two have in common, to join as
 * one person ("The same person") or keep apart ("Not the same"). The owner reviews their own
 * people (names open each person's page); an administrator reviews an account's.
 */
export function SameNameReview({ opened, onClose, account }: SameNameReviewProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={account ? `Possibly the same person: ${account.label}` : 'Possibly the same person'}
    >
      {opened && <PairsList accountId={account?.id} />}
    </Modal>
  );
}

function PairsList({ accountId }: { accountId: string | undefined }) {
  const [page, setPage] = useState(0);
  const pairs = useSameNamePairs(accountId, page, PAIRS_PAGE_SIZE);
  const { decideAbout } = usePersonDecisions(accountId);
  const [deciding, setDeciding] = useState<string | null>(null);
  const emptyPage = !!pairs.data && !pairs.isPlaceholderData && pairs.data.pairs.length === 0;
  // The last pair of a later page was decided: step back.
  useEffect(() => {
    if (emptyPage && page > 0) setPage(page - 1);
  }, [emptyPage, page]);

  if (pairs.isError)
    return (
      <Alert color="red" title="The people of the same name could not be shown" role="alert">
        {errorMessage(pairs.error, 'Please try again.')}
      </Alert>
    );
  if (!pairs.data) return <Text c="dimmed">Loading people of the same name...</Text>;
  const { totalPairs } = pairs.data;
  const totalPages = Math.ceil(totalPairs / PAIRS_PAGE_SIZE);

  const choose = async (pair: SameNamePair, decision: 'same' | 'apart') => {
    setDeciding(`${pair.person.id} ${pair.other.id} ${decision}`);
    await decideAbout(pair.person, pair.other, decision);
    setDeciding(null);
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Same name, no email or identifier in common: never joined unless you say so.{' '}
        {pluralCount(totalPairs, 'pair')} to review.
      </Text>
      {pairs.data.pairs.map((pair) => {
        const key = `${pair.person.id} ${pair.other.id}`;
        const evidence = EVIDENCE.filter(([k]) => pair.inCommon[k].length > 0);
        return (
          <Paper key={key} withBorder p="sm" radius="md" component="article" aria-label={pair.person.name}>
            <Stack gap="xs">
              <Group grow align="flex-start" wrap="wrap">
                <Who person={pair.person} linked={!accountId} />
                <Who person={pair.other} linked={!accountId} />
              </Group>
              {evidence.length ? (
                evidence.map(([k, label]) => (
                  <Text key={k} size="sm">
                    <Text span fw={600}>
                      {label} in common:
                    </Text>{' '}
                    {pair.inCommon[k].join('; ')}
                  </Text>
                ))
              ) : (
                <Text size="sm" c="dimmed">
                  Nothing in common but the name.
                </Text>
              )}
              <Group gap="xs" justify="flex-end">
                <Button
                  size="xs"
                  variant="light"
                  loading={deciding === `${key} same`}
                  disabled={deciding !== null}
                  onClick={() => void choose(pair, 'same')}
                  aria-label={`${pair.person.name} and ${pair.other.name} are the same person`}
                >
                  The same person
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  loading={deciding === `${key} apart`}
                  disabled={deciding !== null}
                  onClick={() => void choose(pair, 'apart')}
                  aria-label={`${pair.person.name} and ${pair.other.name} are not the same person`}
                >
                  Not the same
                </Button>
              </Group>
            </Stack>
          </Paper>
        );
      })}
      {totalPairs === 0 && <Text>No people of the same name to review.</Text>}
      {totalPages > 1 && <Pager page={page} totalPages={totalPages} onPage={setPage} label="Pairs pages" />}
    </Stack>
  );
}

/** One side of a pair: the name (the person's page, for the owner) and the person in one line. */
function Who({ person, linked }: { person: PersonSummary; linked: boolean }) {
  return (
    <div>
      {linked ? (
        <Anchor component={Link} to={`/people/${person.id}`} fw={600}>
          {person.name}
        </Anchor>
      ) : (
        <Text fw={600}>{person.name}</Text>
      )}
      <Text size="xs" c="dimmed">
        {personLine(person)}
      </Text>
    </div>
  );
}
