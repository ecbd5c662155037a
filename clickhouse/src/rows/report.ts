import type { FileRow } from '../files.repository.ts';
import { valueOf } from './criteria-sql.ts';
import type { RowsTable } from './types.ts';

/** One sheet's figures for an import report: its rows, and the non-blank cells of each header. */
export interface SheetFill {
  sheet: string;
  rows: number;
  /** Header → rows where it is not blank (headers the file has). */
  filled: Record<string, number>;
}

/** The rows of one value of a column, with a few examples of other columns' values. */
export interface ValueRows {
  value: string;
  rows: number;
  /** Up to the asked number of rows, each the asked headers' values in order. */
  examples: string[][];
}

/** Figures of a loaded file read back for its import report (one read of its rows each). */
export class RowReport {
  constructor(private readonly t: RowsTable) {}

  /** Rows and non-blank cells per header, for every sheet of `file`, in sheet order of the answer. */
  async sheetFill(file: FileRow): Promise<SheetFill[]> {
    const headers = file.columnNames.filter((h) => Object.hasOwn(file.columnMap, h));
    const params: Record<string, unknown> = { id: file.id };
    const counts = headers.map((h, i) => {
      params[`h${i}`] = h;
      return `countIf(${valueOf([file], h, `h${i}`)} != '')`;
    });
    const rs = await this.t.client.query({
      query: `SELECT sheet, count() AS n, [${counts.join(', ')}] AS filled FROM ${this.t.table}
              WHERE file_id = {id:String} GROUP BY sheet`,
      query_params: params,
      format: 'JSONCompactEachRow',
    });
    return (await rs.json<[string, number, number[]]>()).map(([sheet, n, filled]) => ({
      sheet,
      rows: Number(n),
      filled: Object.fromEntries(headers.map((h, i) => [h, Number(filled[i] ?? 0)])),
    }));
  }

  /**
   * The rows of `file` per value of header `by`, with up to `examples` rows of each giving the
   * values of `show` (e.g. an AUTHOR file's Email Match column, with Authors and Email Addresses).
   */
  async rowsByValue(file: FileRow, by: string, show: string[], examples: number): Promise<ValueRows[]> {
    const key = valueOf([file], by, 'by');
    if (!key) return [];
    const params: Record<string, unknown> = { id: file.id, by, examples };
    const shown = show.map((h, i) => {
      params[`s${i}`] = h;
      return valueOf([file], h, `s${i}`) ?? `''`;
    });
    const rs = await this.t.client.query({
      query: `SELECT ${key} AS v, count() AS n, groupArray({examples:UInt32})([${shown.join(', ')}]) AS ex
              FROM ${this.t.table} WHERE file_id = {id:String} GROUP BY v ORDER BY v`,
      query_params: params,
      format: 'JSONCompactEachRow',
    });
    return (await rs.json<[string, number, string[][]]>()).map(([value, n, ex]) => ({
      value,
      rows: Number(n),
      examples: ex,
    }));
  }
}
