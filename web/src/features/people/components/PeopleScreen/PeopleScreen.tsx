import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { errorMessage } from '../../../../api/client';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { Pager } from '../../../../components/Pager/Pager';
import { notify } from '../../../../ui/notify';
import { downloadPeopleContacts, usePeopleSearch } from '../../api';

/** People a page shows. */
const PAGE_SIZE = 20;
const count = new Intl.NumberFormat('en-US');

/**
 * /people: the account's researchers, one entry each across its author files (rows joined by a
 * shared email, ORCID or ResearcherID; never by a name alone). A search box (names without
 * accents, emails, `@domain`, ORCIDs, journals), then a table: the fullest name and its other
 * spellings, each email with the author entries giving it (the first is the one to write to),
 * identifiers, entries and source files, most entries first.
 */
export function PeopleScreen() {
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [exporting, setExporting] = useState<'CSV' | 'XLSX' | null>(null);
  const exportContacts = async (format: 'CSV' | 'XLSX') => {
    setExporting(format);
    try {
      await downloadPeopleContacts(query, format);
    } catch (error) {
      notify.error(`Contacts export failed: ${errorMessage(error, 'Unknown error')}`);
    } finally {
      setExporting(null);
    }
  };
  const people = usePeopleSearch({ query, page, size: PAGE_SIZE });
  const data = people.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
    setPage(0);
  };
  return (
    <Stack gap="lg">
      <PageHeader
        title="People"
        description="One entry per researcher across your author files: rows that share an email, ORCID or ResearcherID are one person; names alone never join people."
      />
      <Paper withBorder p="md" radius="md">
        <form onSubmit={submit} role="search" aria-label="People">
          <Group align="flex-end">
            <TextInput
              label="Find people"
              placeholder="Name, email, @domain, ORCID or journal"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              w={{ base: '100%', sm: 420 }}
            />
            <Button type="submit" loading={people.isFetching}>
              Search
            </Button>
            {(['CSV', 'XLSX'] as const).map((format) => (
              <Button
                key={format}
                variant="light"
                onClick={() => void exportContacts(format)}
                loading={exporting === format}
                disabled={!data || data.totalPeople === 0 || exporting !== null}
                title="One row per person found: name, the email to write to, other emails, identifiers, entries, last year, journals, files"
              >
                Export contacts ({format})
              </Button>
            ))}
          </Group>
        </form>
      </Paper>
      {people.isError ? (
        <Alert color="red" title="People search failed" role="alert">
          {errorMessage(people.error, 'People search failed. Please try again.')}
        </Alert>
      ) : !data ? (
        <Text c="dimmed">Loading people...</Text>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" aria-live="polite">
              {count.format(data.totalPeople)} {data.totalPeople === 1 ? 'person' : 'people'} from{' '}
              {count.format(data.authorRows)} author entries
              {data.suggestions > 0 && ` · ${count.format(data.suggestions)} names shared by several people`}
            </Text>
            <Pager page={data.page} totalPages={data.totalPages} onPage={setPage} label="People pages" />
          </Group>
          {data.people.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              No people found
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table striped fz="sm" aria-label="People" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Emails</Table.Th>
                    <Table.Th>Identifiers</Table.Th>
                    <Table.Th ta="right">Entries</Table.Th>
                    <Table.Th>Files</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.people.map((person, i) => (
                    <Table.Tr key={`${data.page}-${i}`}>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {person.name || '(no name)'}
                        </Text>
                        {person.otherNames.length > 0 && (
                          <Text size="xs" c="dimmed">
                            also {person.otherNames.join('; ')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          {person.emails.map((e, n) => (
                            <Group key={e.email} gap={6} wrap="nowrap">
                              <Anchor href={`mailto:${e.email}`} size="sm">
                                {e.email}
                              </Anchor>
                              <Text size="xs" c="dimmed">
                                {e.rows} {e.rows === 1 ? 'entry' : 'entries'}
                              </Text>
                              {n === 0 && person.emails.length > 1 && (
                                <Badge size="xs" variant="light">
                                  most used
                                </Badge>
                              )}
                            </Group>
                          ))}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          {person.orcids.map((o) => (
                            <Text key={o} size="xs">
                              ORCID {o}
                            </Text>
                          ))}
                          {person.researcherIds.map((r) => (
                            <Text key={r} size="xs">
                              ResearcherID {r}
                            </Text>
                          ))}
                        </Stack>
                      </Table.Td>
                      <Table.Td ta="right">{count.format(person.rows)}</Table.Td>
                      <Table.Td>
                        <Text size="xs">{person.files.map((f) => f.name).join('; ')}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Stack>
  );
}
