import { detectFormat, type SpreadsheetFormat } from './format.ts';
import { scanXlsx } from './zip-scan.ts';

/**
 * The validate stage, run at upload (for a quick answer) and again at ingest: the format from the
 * content (magic bytes) against the extension, then for xlsx the zip and XML safety scan. Throws
 * InvalidFileError whose `kind` says why (see InvalidFileKind) and whose message a user can act on.
 */
export async function validateSpreadsheet(
  filePath: string,
  originalName: string,
): Promise<SpreadsheetFormat> {
  const format = await detectFormat(filePath, originalName);
  if (format === 'xlsx') await scanXlsx(filePath, originalName);
  return format;
}
