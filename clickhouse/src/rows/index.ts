/** `rows`: the searchable rows of every file (see RowsRepository). */
export { RowsRepository } from './rows.repository.ts';
export { SUGGEST_LIMITS } from './suggest-sql.ts';
export {
  AUTHOR_PAIR_STRUCTURE,
  type AuthorCells,
  type AuthorPairValue,
  type AuthorSheetCopy,
  type RowAuthors,
} from './authors.ts';
export type { ExportQuery } from './export.ts';
export type { RecordCopies, RowReport, SheetFill, ValueRows } from './report.ts';
export { LISTED_COPIES_MAX, type RowCopies } from './copies.ts';
export { RECORD_ID_HEADERS, recordKeySql } from './record-key.ts';
export {
  MAX_NEW_COLUMNS_PER_FILE,
  MAX_PHYSICAL_COLUMNS,
  MAX_PHYSICAL_COLUMNS_PER_ACCOUNT,
  MAX_TEXT_INDEXES_PER_ACCOUNT,
  type ColumnBudget,
  RAGGED_MARKER,
  physicalColumnName,
  rowWriteQueryId,
  type CsvFileLoad,
  type RowBatch,
  type RowHit,
  type RowQuery,
} from './types.ts';
