import { rowsIdOf, type FileRow } from '../files.repository.ts';
import { ident } from '../sql.ts';
import { valueOf } from './criteria-sql.ts';
import { recordKeySql } from './record-key.ts';
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

/** Records of a file that are copies: of another record of the file, or of one in other files. */
export interface RecordCopies {
  /** Rows whose record came earlier in the same file. */
  inFile: number;
  /** Rows whose record is in one of the other files too. */
  inOtherFiles: number;
}

/** Figures of a loaded file read back for its import report (one read of its rows each). */
export class RowReport {
  constructor(private readonly t: RowsTable) {}

  /**
   * How many of `file`'s rows are records exported twice (by recordKeySql): within the file, and
   * already in `others` (the owner's other files). Read from the list of copies, which
   * RowCopies.record has written for `file` first: every row of `file` whose record is twice in it
   * or in another file is there, beside the rows it copies. Null when `file` has no record id
   * column.
   */
  async recordCopies(file: FileRow, others: FileRow[]): Promise<RecordCopies | null> {
    if (!recordKeySql([file], 'k')) return null;
    const { copies, cluster } = this.t.layout;
    // On a cluster the set is built once and sent to the shards (a plain IN is refused there).
    const inSet = cluster ? 'GLOBAL IN' : 'IN';
    const rs = await this.t.client.query({
      query: `SELECT count() - uniqExact(record_key) AS in_file,
                     countIf(record_key ${inSet} (SELECT record_key FROM ${copies}
                                                  WHERE file_id IN {others:Array(String)})) AS in_other_files
              FROM (SELECT DISTINCT sheet, row_number, record_key FROM ${copies} WHERE file_id = {id:String})`,
      query_params: { id: rowsIdOf(file), others: others.map(rowsIdOf) },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ in_file: number; in_other_files: number }>();
    return { inFile: Number(row?.in_file ?? 0), inOtherFiles: Number(row?.in_other_files ?? 0) };
  }

  /**
   * Rows and non-blank cells per header, for every sheet of `file`, in sheet order of the answer:
   * its physical columns counted one by one (at most MAX_PHYSICAL_COLUMNS of a file), the headers
   * of the overflow map in one count by key (a file may have 20,000 of them: naming each passes the
   * engine's limit on a query's size).
   */
  async sheetFill(file: FileRow): Promise<SheetFill[]> {
    const physical = file.columnNames.filter((h) => file.columnMap[h]);
    const counts = physical.map((h) => `countIf(${ident(file.columnMap[h]!)} != '')`);
    const rs = await this.t.client.query({
      query: `SELECT sheet, count() AS n, [${counts.join(', ')}] AS filled FROM ${this.t.table}
              WHERE file_id = {id:String} GROUP BY sheet`,
      query_params: { id: rowsIdOf(file) },
      format: 'JSONCompactEachRow',
    });
    const sheets = new Map<string, SheetFill>();
    for (const [sheet, n, filled] of await rs.json<[string, number, number[]]>()) {
      const fill: SheetFill = { sheet, rows: Number(n), filled: Object.create(null) };
      for (const h of file.columnNames) if (Object.hasOwn(file.columnMap, h)) fill.filled[h] = 0;
      physical.forEach((h, i) => (fill.filled[h] = Number(filled[i] ?? 0)));
      sheets.set(sheet, fill);
    }
    if (file.columnNames.some((h) => file.columnMap[h] === '')) {
      const extra = await this.t.client.query({
        query: `SELECT sheet, k, count() FROM ${this.t.table}
                ARRAY JOIN mapKeys(mapFilter((key, value) -> value != '', extra)) AS k
                WHERE file_id = {id:String} GROUP BY sheet, k`,
        query_params: { id: rowsIdOf(file) },
        format: 'JSONCompactEachRow',
      });
      for (const [sheet, header, n] of await extra.json<[string, string, number]>()) {
        const fill = sheets.get(sheet);
        if (fill && Object.hasOwn(file.columnMap, header)) fill.filled[header] = Number(n);
      }
    }
    return [...sheets.values()];
  }

  /**
   * The rows of `file` per value of header `by`, with up to `examples` rows of each giving the
   * values of `show` (e.g. an AUTHOR file's Email Match column, with Authors and Email Addresses).
   */
  async rowsByValue(file: FileRow, by: string, show: string[], examples: number): Promise<ValueRows[]> {
    const key = valueOf([file], by, 'by');
    if (!key) return [];
    const params: Record<string, unknown> = { id: rowsIdOf(file), by, examples };
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
