import { useCallback, useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { FileRecord } from '@sift/shared/contracts';
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { ColumnSearchSection } from '../ColumnSearchSection/ColumnSearchSection';
import { FileFilterControl } from '../FileFilterControl/FileFilterControl';
import { FullScreenLoader } from '../../../../components/FullScreenLoader/FullScreenLoader';
import { InitialLoadError } from '../../../../components/InitialLoadError/InitialLoadError';
import { PageHeader } from '../../../../components/PageHeader/PageHeader';
import { filteredFiles, filterScope, type FileFilter } from '../../fileFilter';
import { useColumnSearchScreen } from '../../useColumnSearchScreen';
import { useScreenSearchState } from '../../store';
import { useSearchUrl } from '../../useSearchUrl';
import { ReindexNotice } from '../../../upload';

/** /search: per-column search over the PROCESSED GENERAL files. */
export function SearchScreen() {
  const [{ filter }, update] = useScreenSearchState('GENERAL');
  const setFilter = (next: FileFilter) => update({ filter: next });
  const scope = useMemo(() => filterScope(filter), [filter]);
  const columnsOf = useCallback((files: FileRecord[]) => filteredFiles(files, filter), [filter]);
  const screen = useColumnSearchScreen('GENERAL', { scope, columnsOf });
  const { files, typed } = screen;
  useSearchUrl('GENERAL');
  // A shared link may name files this account does not have: they leave the filter.
  const known = files.data ? typed : null;
  useEffect(() => {
    if (!known) return;
    const ids = new Set(known.map((f) => f.id));
    if (filter.fileIds.some((id) => !ids.has(id)))
      update({ filter: { ...filter, fileIds: filter.fileIds.filter((id) => ids.has(id)) } });
  }, [known, filter, update]);

  if (files.isPending) return <FullScreenLoader label="Loading your data..." fullHeight={false} />;
  if (files.isError && !files.data) {
    return <InitialLoadError title="Search" onRetry={() => void files.refetch()} />;
  }

  const inScope = filteredFiles(typed, filter).length;
  const reading = files.data.filter(
    (file) => file.fileType === 'GENERAL' && file.status === 'PROCESSING',
  ).length;
  const processing = reading > 0;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Search"
        description="Search rows across your files by column: partial, case-insensitive matching; all terms must match."
      />

      {screen.hasFiles && <ReindexNotice />}

      {screen.hasFiles && processing && (
        // A new upload or a re-ingest: that file is out of the results meanwhile.
        <Alert color="yellow" variant="light" role="status" title="Files are being read">
          {reading === 1 ? '1 of your files is' : `${reading} of your files are`} being read;{' '}
          {reading === 1 ? 'its' : 'their'} rows join the results when done.
        </Alert>
      )}

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
          preprocessing
          fileCount={inScope}
          toolbar={
            <FileFilterControl
              files={typed}
              filter={filter}
              onChange={(next) => {
                setFilter(next);
                screen.form.goToPage(0);
              }}
            />
          }
          withSource
          caption={`Search results in ${inScope} ${inScope === 1 ? 'file' : 'files'}`}
        />
      )}
    </Stack>
  );
}
