import { stat } from 'node:fs/promises';
import { InvalidFileError } from './errors.ts';
import { detectFormat, type SpreadsheetFormat } from './format.ts';
import { count, SHEET_LIMITS } from './limits.ts';
import { scanXlsx } from './zip-scan.ts';

/**
 * The validate stage, run at upload (for a quick answer) and again at ingest: the format from the
 * content (magic bytes) against the extension, then for xlsx the zip and XML safety scan. Throws
 * InvalidFileError whose `kind` says why (see InvalidFileKind) and whose message a user can act on.
 *
 * @param filePath - the stored upload
 * @param originalName - the name the user gave it
 * @returns the format to read it as
 * @throws InvalidFileError for a file Sift does not read, with the reason
 */
export async function validateSpreadsheet(
  filePath: string,
  originalName: string,
): Promise<SpreadsheetFormat> {
  const format = await detectFormat(filePath, originalName);
  if (format === 'xlsx') await scanXlsx(filePath, originalName);
  if (format === 'xls' && (await stat(filePath)).size > SHEET_LIMITS.maxXlsBytes) {
    throw new InvalidFileError(
      `"${originalName}" was refused: a legacy .xls workbook may be at most ${count(SHEET_LIMITS.maxXlsBytes / 2 ** 20)} MB. Save it as .xlsx in Excel and upload that instead.`,
      'unsafe',
    );
  }
  return format;
}
