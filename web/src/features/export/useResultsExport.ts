import { useState } from 'react';
import type { PreprocessingPreview, PreprocessingRule, SearchResponse } from '@sift/shared/contracts';
import { apiRequest, EXPORT_TIMEOUT_MS } from '../../api/client';
import { useExport, type ExportVariables } from './api';
import { normalizeCustomFilename, type ExportFormat } from './exportFilename';
import { notify } from '../../ui/notify';

/**
 * The Export Results flow shared by the Search and Authors screens: the dialog's open state, the
 * spec's guard ('No search results to export') and toasts, and the export call itself.
 * `request` is what to export (null before a search); `defaultFilename` names the file when the user
 * gives none (else the server's default).
 */
export function useResultsExport(options: {
  request: ExportVariables['request'] | null;
  results: SearchResponse | undefined;
  defaultFilename?: () => string;
}) {
  const exporter = useExport();
  const [opened, setOpened] = useState(false);

  const open = () => {
    const { request, results } = options;
    if (!request || !results || results.totalRecords === 0 || !results.searchAvailable) {
      notify.error('No search results to export');
      return;
    }
    setOpened(true);
  };

  const run = (
    format: ExportFormat,
    filename: string,
    columns?: string[],
    rules?: PreprocessingRule[] | null,
    includeMetadata = false,
  ) => {
    if (!options.request) return;
    const customFilename = normalizeCustomFilename(filename, format) ?? options.defaultFilename?.();
    exporter.mutate(
      {
        request: {
          ...options.request,
          ...(columns ? { columns } : {}),
          ...(rules ? { enablePreprocessing: true, preprocessingRules: rules } : {}),
          ...(includeMetadata ? { includeMetadata } : {}),
        },
        format,
        ...(customFilename ? { customFilename } : {}),
      },
      {
        onSuccess: () => {
          setOpened(false);
          notify.success('Export completed successfully! Your file is being downloaded.');
        },
        onError: (error) => {
          console.error('Export failed', error);
          notify.error('Export failed. Please try again.');
        },
      },
    );
  };

  /** `POST /api/file/export/preview`: what the rules make of the current search's rows. */
  const preview = (rules: PreprocessingRule[]) =>
    apiRequest<PreprocessingPreview>('/file/export/preview', {
      method: 'POST',
      body: { ...options.request, enablePreprocessing: true, preprocessingRules: rules },
      timeoutMs: EXPORT_TIMEOUT_MS,
    });

  return { opened, open, close: () => setOpened(false), run, preview, exporting: exporter.isPending };
}
