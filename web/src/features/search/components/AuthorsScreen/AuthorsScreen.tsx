import { Link } from 'react-router-dom';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ColumnSearchForm } from '../ColumnSearchForm/ColumnSearchForm';
import { ColumnSearchSection } from '../ColumnSearchSection/ColumnSearchSection';
import { FullScreenLoader } from '../../../../components/FullScreenLoader/FullScreenLoader';
import { InitialLoadError } from '../../../../components/InitialLoadError/InitialLoadError';
import { useColumnSearchScreen } from '../../useColumnSearchScreen';
import { useSearchUrl } from '../../useSearchUrl';
import { ReindexNotice } from '../../../upload';

/** /authors: per-column search over the AUTHOR files (one author and their email per row). */
export function AuthorsScreen() {
  const screen = useColumnSearchScreen('AUTHOR');
  useSearchUrl('AUTHOR');
  const { files, form, typed: authorFiles, hasFiles: hasAuthorFiles } = screen;

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return <InitialLoadError title="Authors Search" onRetry={() => void files.refetch()} />;
  }

  const noFilesAtAll = files.data.length === 0;
  const filtersActive = form.activeTerms > 0;

  return (
    <Stack gap="lg">
      <div>
        <Group gap="sm">
          <Title order={1} size="h2">
            Authors Search
          </Title>
          {filtersActive && (
            <Badge color="blue" variant="filled">
              Filters Active
            </Badge>
          )}
        </Group>
        <Text c="dimmed">Search pre-processed author data with column-specific criteria.</Text>
      </div>

      {hasAuthorFiles && <ReindexNotice />}

      {hasAuthorFiles ? (
        <Alert color="blue" variant="light">
          Tip: all author files are automatically included in your search
        </Alert>
      ) : (
        <Alert color="yellow" variant="light">
          No author files found: upload files containing Authors and Email Addresses columns to enable the
          Authors search feature
        </Alert>
      )}

      {noFilesAtAll ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={2} size="h4">
              No files uploaded
            </Title>
            <Button component={Link} to="/upload">
              Upload Files
            </Button>
          </Stack>
        </Paper>
      ) : (
        <>
          {hasAuthorFiles ? (
            <ColumnSearchSection
              screen={screen}
              withSource
              fileCount={authorFiles.length}
              caption={`Author search results in ${authorFiles.length} author ${authorFiles.length === 1 ? 'file' : 'files'}`}
            />
          ) : (
            <>
              <Paper withBorder p="md" radius="md">
                <ColumnSearchForm
                  columns={[]}
                  totalColumns={0}
                  onColumnSettings={() => {}}
                  suggestions={screen.suggestions}
                  values={{}}
                  onChange={() => {}}
                  onSubmit={() => {}}
                  onClear={() => {}}
                  searching={false}
                  disabled
                  activeTerms={0}
                  noColumnsText="No columns available / No pre-processed files found"
                  extraActions={
                    <Button variant="light" disabled>
                      Export Results
                    </Button>
                  }
                />
              </Paper>
              <Paper withBorder p="xl" radius="md">
                <Text c="dimmed" ta="center">
                  Select files to see available columns.
                </Text>
              </Paper>
            </>
          )}
        </>
      )}
    </Stack>
  );
}
