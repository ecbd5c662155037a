import { Link } from 'react-router-dom';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { ColumnSearchSection } from '../components/ColumnSearchSection/ColumnSearchSection';
import { FullScreenLoader } from '../components/FullScreenLoader/FullScreenLoader';
import { InitialLoadError } from '../components/InitialLoadError/InitialLoadError';
import { PageHeader } from '../components/PageHeader/PageHeader';
import { datedFilename } from '../lib/exportFilename';
import { useColumnSearchScreen } from '../lib/useColumnSearchScreen';

/** /search: per-column search over the PROCESSED GENERAL files. */
export function SearchPage() {
  const screen = useColumnSearchScreen('GENERAL');
  const { files, typed } = screen;

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return <InitialLoadError title="Search" onRetry={() => void files.refetch()} />;
  }

  const processing = files.data.some((file) => file.fileType === 'GENERAL' && file.status === 'PROCESSING');

  return (
    <Stack gap="lg">
      <PageHeader
        title="Search"
        description="Search rows across your files by column: partial, case-insensitive matching; all terms must match."
      />

      {!screen.hasFiles ? (
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="sm">
            <Title order={2} size="h4">
              {processing ? 'Your files are still processing' : 'No files uploaded'}
            </Title>
            <Text c="dimmed" ta="center">
              {processing
                ? 'Search becomes available as soon as processing finishes.'
                : 'No files available for search. Please upload files first.'}
            </Text>
            <Button component={Link} to="/upload">
              Upload Files
            </Button>
          </Stack>
        </Paper>
      ) : (
        <ColumnSearchSection
          screen={screen}
          withSource
          caption={`Search results in ${typed.length} ${typed.length === 1 ? 'file' : 'files'}`}
          defaultFilename={datedFilename('search_results_')}
        />
      )}
    </Stack>
  );
}
