import { useState } from 'react';
import { Button, Checkbox, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { MAX_FILES_PER_IMPORT, type ImportFromLocationResponse } from '@sift/shared/contracts';
import { errorMessage } from '../../../../api/client';
import { LoadError } from '../../../../components/LoadError/LoadError';
import { formatDateTime, pluralCount } from '../../../../lib/format';
import { notify } from '../../../../ui/notify';
import { formatBytes } from '../../../../lib/format';
import { isNotConfigured, useImportFromLocation, useImportLocation } from '../../locationImport';
import { useUploadStore } from '../../store';

/** Tells the person what an import did: the files taken (their session reports the rest) and those left. */
function reportImport(result: ImportFromLocationResponse) {
  const taken = result.files.length;
  notify.success(`Importing ${pluralCount(taken, 'file')} from ${result.location}`);
  for (const { name, reason } of result.skipped) notify.error(`${name} was not imported: ${reason}`);
}

/**
 * The Upload screen's import from the configured FTP/SFTP location: its Excel and CSV files with a
 * checkbox each, Import Selected and Import All. Nothing is shown when no location is configured
 * (the listing answers 501); a location that cannot be reached says why, with Try Again. An import
 * becomes an upload session like any upload, watched and reported the same way.
 */
export function LocationImport() {
  const listing = useImportLocation();
  const importer = useImportFromLocation();
  const [chosen, setChosen] = useState<string[]>([]);

  if (listing.isPending || isNotConfigured(listing.error)) return null;

  const start = (files: readonly string[] | null) =>
    importer
      .mutateAsync(files)
      .then((result) => {
        setChosen([]);
        useUploadStore.getState().watchOwnSession(result.sessionId, Date.now());
        reportImport(result);
      })
      .catch((error: unknown) => notify.error(`Import failed: ${errorMessage(error, 'Please try again.')}`));

  const files = listing.data?.files ?? [];
  const present = new Set(files.map((f) => f.name));
  const selected = chosen.filter((name) => present.has(name));
  const busy = importer.isPending;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="location-import-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            <IconServer size={20} aria-hidden />
            <Title order={2} size="h4" id="location-import-title">
              Import from a server
            </Title>
          </Group>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => void listing.refetch()}
            loading={listing.isFetching}
            disabled={busy}
          >
            Refresh
          </Button>
        </Group>
        {listing.isError ? (
          <LoadError
            title="The server location could not be read"
            message={errorMessage(listing.error, 'The server did not answer.')}
            onRetry={() => void listing.refetch()}
          />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Excel and CSV files at {listing.data?.location}
            </Text>
            {files.length === 0 ? (
              <Text size="sm">There are no Excel or CSV files there.</Text>
            ) : (
              <>
                <ScrollArea.Autosize mah={260} type="auto">
                  <Checkbox.Group
                    value={selected}
                    onChange={setChosen}
                    label={`Files to import (${selected.length} of ${files.length} selected)`}
                  >
                    <Stack gap={6} mt="xs">
                      {files.map((file) => (
                        <Checkbox
                          key={file.name}
                          value={file.name}
                          label={file.name}
                          description={[
                            formatBytes(file.sizeBytes),
                            file.modifiedAt ? formatDateTime(file.modifiedAt) : null,
                          ]
                            .filter(Boolean)
                            .join(' • ')}
                          disabled={busy}
                        />
                      ))}
                    </Stack>
                  </Checkbox.Group>
                </ScrollArea.Autosize>
                <Group gap="sm">
                  <Button
                    onClick={() => void start(selected)}
                    disabled={selected.length === 0 || busy}
                    loading={busy && importer.variables !== null}
                  >
                    Import Selected ({selected.length})
                  </Button>
                  <Button
                    variant="default"
                    onClick={() => void start(null)}
                    disabled={busy || files.length > MAX_FILES_PER_IMPORT}
                    loading={busy && importer.variables === null}
                  >
                    Import All ({files.length})
                  </Button>
                  {busy && (
                    <Text size="sm" c="dimmed" role="status">
                      Importing...
                    </Text>
                  )}
                </Group>
                {files.length > MAX_FILES_PER_IMPORT && (
                  <Text size="sm" c="dimmed">
                    At most {MAX_FILES_PER_IMPORT} files can be imported at a time: select them.
                  </Text>
                )}
              </>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
