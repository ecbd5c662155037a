import path from 'node:path';
import { readBibtex } from './bibtex.ts';
import { readCsv } from './csv.ts';
import { InvalidFileError } from './errors.ts';
import { LimitError, refusedFile } from './limits.ts';
import { TAGGED_FORMATS, type SpreadsheetFormat } from './format.ts';
import type { ParsedRow, ReadProgress } from './types.ts';
import { validateSpreadsheet } from './validate.ts';
import { readXls } from './xls.ts';
import { readXlsx } from './xlsx.ts';
import { readTaggedText, TAGGED_DIALECT_NAMES } from './tagged-text.ts';

/**
 * Reads every row of every sheet of a stored upload, in order, whatever its format: CSV or tagged
 * records (Web of Science plain text, RIS, MEDLINE: one sheet named after the file), xlsx (streaming) or legacy xls. A file that cannot be read throws
 * InvalidFileError with a message the user can act on.
 *
 * @param filePath - the stored upload
 * @param originalName - the name the user gave it
 * @param progress - where bytes read are counted
 * @param validated - the format, when already found
 * @param encoding - for text formats, the encoding a person chose instead of the guess
 * @returns every row of every sheet, in order
 * @throws InvalidFileError for a file that cannot be read, with a message the user can act on
 */
export async function* readSpreadsheet(
  filePath: string,
  originalName: string,
  progress: ReadProgress = { bytesRead: 0 },
  /** The format validateSpreadsheet already found (skips validating again). */
  validated?: SpreadsheetFormat,
  encoding?: string,
): AsyncGenerator<ParsedRow, SpreadsheetFormat> {
  const format = validated ?? (await validateSpreadsheet(filePath, originalName));
  const sheetName = path.parse(originalName).name || 'Sheet1';
  const dialect = TAGGED_FORMATS[format];
  const source =
    format === 'csv'
      ? readCsv(filePath, sheetName, progress, encoding)
      : dialect
        ? readTaggedText(filePath, sheetName, dialect, progress, encoding)
        : format === 'bibtex'
          ? readBibtex(filePath, sheetName, progress, encoding)
          : format === 'xlsx'
            ? readXlsx(filePath, progress)
            : readXls(filePath, progress);
  try {
    yield* source;
  } catch (e) {
    if (e instanceof InvalidFileError) throw e;
    if (e instanceof LimitError) throw refusedFile(originalName, e);
    const detail = e instanceof Error ? e.message : String(e);
    const what =
      format === 'csv'
        ? 'a CSV file'
        : dialect
          ? TAGGED_DIALECT_NAMES[dialect]
          : format === 'bibtex'
            ? 'a BibTeX file'
            : `an Excel workbook (.${format})`;
    throw new InvalidFileError(
      `"${originalName}" could not be read as ${what}: ${detail}. Check that it opens in Excel, save it again and re-upload it.`,
    );
  }
  return format;
}
