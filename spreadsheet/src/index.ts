/**
 * `@sift/spreadsheet`: reading uploaded spreadsheets (CSV, xlsx, legacy xls) as rows of text cells,
 * and the validation of an upload (format from its content, zip and XML safety scan). Used by the
 * api to refuse a bad upload at once and by the ingest worker to read rows.
 */
export { InvalidFileError, type InvalidFileKind } from './errors.ts';
export { LimitError, refusedFile, SHEET_LIMITS } from './limits.ts';
export { validateSpreadsheet } from './validate.ts';
export { scanXlsx, ZIP_LIMITS } from './zip-scan.ts';
export { detectFormat, type SpreadsheetFormat } from './format.ts';
export {
  headerNames,
  headerRowAt,
  headerRowDecided,
  headerRowDecidedAt,
  headerRowIndex,
  uniqueHeaders,
  widenHeaders,
  RESERVED_HEADERS,
} from './headers.ts';
export { isWosTagRow, namedWosTags, WOS_TAG_NAMES } from './wos-tags.ts';
export { namedTags, MEDLINE_TAG_NAMES, RIS_TAG_NAMES } from './record-tags.ts';
export { cellText, trimRow } from './cell-text.ts';
export { readSpreadsheet } from './read.ts';
export { countingReadStream } from './counting-stream.ts';
export {
  decoder,
  detectDelimiter,
  endsRecordsWithTab,
  guessEncoding,
  isUnquotedWosExport,
  readCsv,
  sniff,
  type Encoding,
  type EncodingGuess,
} from './csv.ts';
export { splitCsv, type CsvChunk, type CsvSplit } from './csv-split.ts';
export type { ParsedRow, ReadProgress } from './types.ts';
export { readIsolated, READ_ISOLATION, type ReadIsolation } from './isolated-read.ts';
export { inspectUpload, leadingRows, type Inspection, type LeadingRow } from './inspect.ts';
