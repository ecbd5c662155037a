export type ExportFormat = 'XLSX' | 'CSV';

/** The lower-cased extension of an export format (spec section 5: XLSX gives .xlsx, CSV gives .csv). */
export function exportExtension(format: ExportFormat): string {
  return format.toLowerCase();
}

/**
 * The custom filename to send: trimmed, without a trailing extension of the chosen format (the
 * server appends it), undefined when empty.
 */
export function normalizeCustomFilename(
  name: string | null | undefined,
  format: ExportFormat,
): string | undefined {
  const trimmed = (name ?? '').trim();
  if (!trimmed) return undefined;
  const suffix = `.${exportExtension(format)}`;
  const base = trimmed.toLowerCase().endsWith(suffix) ? trimmed.slice(0, -suffix.length).trim() : trimmed;
  return base || undefined;
}

/**
 * The name to save a downloaded export under: the server's `Content-Disposition` filename, else the
 * custom filename plus the extension, else `export.{ext}` (spec section 5, shared download helper).
 */
export function exportDownloadName(
  serverFilename: string | null,
  customFilename: string | undefined,
  format: ExportFormat,
): string {
  if (serverFilename) return serverFilename;
  const ext = exportExtension(format);
  return customFilename ? `${customFilename}.${ext}` : `export.${ext}`;
}

/** `prefix` plus today's ISO date, e.g. `authors_search_results_2025-01-31`. */
export function datedFilename(prefix: string, now: Date = new Date()): string {
  return `${prefix}${now.toISOString().slice(0, 10)}`;
}
