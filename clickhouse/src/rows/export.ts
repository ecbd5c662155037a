import { neutraliseSql } from '@sift/shared/csv-injection';
import {
  columnLetters,
  EDGE_WHITESPACE,
  INLINE_CELL,
  XML_DROPPED_CHARS,
  XML_TEXT_ESCAPES,
} from '@sift/shared/ooxml';
import { leaveOutCopies, readLeftOutCopies } from './copies.ts';
import { compileQuery, keyBound, valueOf } from './criteria-sql.ts';
import type { RowKey, RowQuery, RowsTable } from './types.ts';
import { rowsIdOf } from '../files.repository.ts';

/** An export's query: the search, the header names to write in order, and whether to lead with file, sheet and row. */
export type ExportQuery = RowQuery & { columns: string[]; metadata?: boolean };

/**
 * A query that names every column of a wide file (1,600 columns with long names): longer than the
 * engine's default 256 KB limit on a query's text and 50,000 elements of its syntax tree, which cut
 * such an export off ("Max query size exceeded"). The text is Sift's own SQL; only its length grows
 * with the columns.
 */
export const WIDE_QUERY_SETTINGS = {
  max_query_size: String(64 * 2 ** 20),
  max_ast_elements: '5000000',
  max_expanded_ast_elements: '5000000',
} as const;

/**
 * Engine settings for writing a whole export in bounded memory: two threads, sorting spilled to
 * disk past 100 MB, no parallel formatting, and small blocks without read-ahead buffering, because
 * the read in key order holds several blocks of every part it merges (docs/benchmarks.md, "Writing
 * exports").
 */
const BOUNDED_EXPORT_SETTINGS = {
  ...WIDE_QUERY_SETTINGS,
  max_threads: 2,
  max_block_size: '1024',
  max_bytes_before_external_sort: String(100 * 1024 * 1024),
  output_format_parallel_formatting: 0,
  read_in_order_use_buffering: 0,
} as const;

/**
 * An export written in one piece (at most a piece's rows): larger blocks and the CSV formatted on
 * parallel threads, faster for a little more memory. A larger export keeps the bounded settings
 * piece by piece.
 */
const ONE_PIECE_EXPORT_SETTINGS = {
  ...BOUNDED_EXPORT_SETTINGS,
  max_block_size: '8192',
  output_format_parallel_formatting: 1,
} as const;

/**
 * SQL for worksheet rows over export fields: `inner` names each field's text `f0`, `f1`, … and
 * `row` builds the `<row>` element from them and the row number `r` (a string), cell for cell as
 * rowXml of `@sift/shared/ooxml` writes it, from the same pieces.
 */
function xlsxRowSql(fields: string[]): { inner: string; row: string } {
  const literal = (t: string) => `'${t.replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`;
  const text = (f: string) =>
    `replaceRegexpAll(${XML_TEXT_ESCAPES.reduce((sql, [from, to]) => `replaceAll(${sql}, ${literal(from)}, ${literal(to)})`, f)}, '${XML_DROPPED_CHARS}', '')`;
  const [beforeRef, afterRef] = INLINE_CELL.open('\u0000').split('\u0000') as [string, string];
  const cells = fields.map(
    (_, i) =>
      `if(f${i} = '', '', concat('${beforeRef}${columnLetters(i + 1)}', r, '${afterRef}', if(match(f${i}, '${EDGE_WHITESPACE}'), '${INLINE_CELL.preserve}', ''), '>', ${text(`f${i}`)}, '${INLINE_CELL.close}'))`,
  );
  return {
    inner: fields.map((f, i) => `toString(${f}) AS f${i}`).join(', '),
    row: `concat('<row r="', r, '">', ${cells.join(', ')}, '</row>')`,
  };
}

/** Line breaks in `text`: the rows of a TabSeparatedRaw piece whose values hold none. */
function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The WHERE clause, parameters and field expressions of an export (see csv). `csv`: cells that
 * would start a formula are neutralised (a CSV opened in a spreadsheet program runs them); an xlsx
 * cell is an inline string, never a formula, so it keeps its exact value.
 */
async function exportSelect(
  t: RowsTable,
  asked: ExportQuery,
  csv: boolean,
): Promise<{ filter: string; params: Record<string, unknown>; fields: string[] } | null> {
  const cell = csv ? neutraliseSql : (expr: string) => expr;
  // The copies of records left out are read once for the whole export, not once a piece.
  const query = { ...asked, ...(await readLeftOutCopies(t, asked)) };
  const compiled = compileQuery({ ...query, headers: [] });
  if (!compiled) return null;
  const c = leaveOutCopies(t, query, compiled);
  const params: Record<string, unknown> = { ...c.params };
  const fields = query.columns.map((header, i) => {
    params[`ch${i}`] = header;
    return cell(valueOf(query.files, header, `ch${i}`) ?? "''");
  });
  if (query.metadata) {
    params.metaIds = query.files.map(rowsIdOf);
    params.metaNames = query.files.map((f) => f.originalFilename);
    // An AUTHOR row's row is its record's in the uploaded file, when kept (SOURCE_ROW_KEY).
    const row = compiled.sourceRow
      ? "if(extra[{sourceRowKey:String}] = '', row_number, toUInt32OrZero(extra[{sourceRowKey:String}]))"
      : 'row_number';
    fields.unshift(
      cell("transform(file_id, {metaIds:Array(String)}, {metaNames:Array(String)}, '')"),
      cell('sheet'),
      row,
    );
  }
  return { filter: c.filter, params, fields };
}

/** Exports of matching rows written by the engine: CSV text, xlsx worksheet rows, or straight to files. */
export class RowExport {
  constructor(private readonly t: RowsTable) {}

  /**
   * Every matching row as CSV text written by the engine itself (RFC 4180, every field quoted,
   * `\n` line ends, no header row), in (file, sheet, row number) order, in pieces of about
   * `batchRows` rows. `columns` are header names (a file without one gives an empty field); with
   * `metadata`, each row starts with its file name, sheet and row number. Cells that a spreadsheet
   * would run as a formula (starting with `=`, `+`, `-`, `@`, tab, CR or LF, and not a plain number)
   * are prefixed with `'` (OWASP CSV injection), as the JavaScript exporter does. Each piece is
   * bounded by a key found first, so memory stays bounded whatever the result size.
   */
  async *csv(query: ExportQuery, batchRows = 100_000): AsyncGenerator<string> {
    const select = await exportSelect(this.t, query, true);
    if (!select) return;
    const data = (source: string) =>
      `SELECT ${select.fields.join(', ')} FROM ${source} ORDER BY file_id, sheet, row_number`;
    for await (const piece of this.#readRanges(select, data, 'CSV', batchRows)) yield piece.text;
  }

  /**
   * The same rows as {@link csv}, as the `<row>` elements of xlsx worksheets (SpreadsheetML),
   * written by the engine: one line per row, each non-empty cell an inline string with its
   * reference (`<c r="B7" t="inlineStr">`), text XML-escaped (line breaks as character references,
   * characters XML cannot hold dropped), exact (an inline string is never a formula). Row numbers restart every
   * `sheet.rows` rows (the writer starts a new sheet there) after `sheet.headerRows` header rows.
   * Pieces of `batchRows` rows (the last may be shorter), with their row counts.
   */
  async *xlsxRows(
    query: ExportQuery,
    sheet: { rows: number; headerRows: number },
    batchRows = 100_000,
  ): AsyncGenerator<{ text: string; rows: number }> {
    const select = await exportSelect(this.t, query, false);
    if (!select) return;
    const { inner, row } = xlsxRowSql(select.fields);
    const params = { ...select.params, perSheet: sheet.rows, headerRows: sheet.headerRows };
    // Numbered after sorting (a window over the piece's order): the sheet row of each row.
    const data = (source: string) =>
      `SELECT ${row} FROM (
         SELECT toString({headerRows:UInt64} + (({first:UInt64} + row_number() OVER (ORDER BY file_id, sheet, row_number) - 1) % {perSheet:UInt64}) + 1) AS r,
                file_id, sheet, row_number, ${inner}
         FROM ${source}) ORDER BY file_id, sheet, row_number`;
    yield* this.#readRanges(
      { filter: select.filter, params },
      data,
      'TabSeparatedRaw',
      batchRows,
      (index) => ({
        first: index * batchRows,
      }),
    );
  }

  /**
   * The same worksheet rows as {@link xlsxRows}, each sheet's written by the embedded engine itself
   * into the file `path(index)` (0-based sheet index): at most `sheet.rows` rows a sheet, numbered
   * after `sheet.headerRows` header rows. Yields each sheet's file and row count once written (the
   * caller owns the file). Embedded chDB only.
   */
  async *xlsxSheetFiles(
    query: ExportQuery,
    sheet: { rows: number; headerRows: number },
    path: (index: number) => string,
  ): AsyncGenerator<{ path: string; rows: number }> {
    const select = await exportSelect(this.t, query, false);
    if (!select) return;
    const { inner, row } = xlsxRowSql(select.fields);
    let index = 0;
    for await (const range of this.#keyRanges(select.filter, select.params, sheet.rows)) {
      let rows = sheet.rows;
      if (range.last) {
        const rs = await this.t.client.query({
          query: `SELECT count() AS n FROM ${range.source}`,
          query_params: range.params,
          format: 'JSONEachRow',
        });
        rows = Number((await rs.json<{ n: number }>())[0]?.n ?? 0);
        if (!rows) return;
      }
      const out = path(index++);
      // One reading thread: rowNumberInAllBlocks() then counts rows in their sorted order.
      await this.t.client.command({
        query: `INSERT INTO FUNCTION file({out:String}, 'TabSeparatedRaw')
                SELECT ${row} FROM (
                  SELECT toString({headerRows:UInt64} + rowNumberInAllBlocks() + 1) AS r, * FROM (
                    SELECT ${inner} FROM ${range.source} ORDER BY file_id, sheet, row_number))`,
        query_params: { ...range.params, out, headerRows: sheet.headerRows },
        clickhouse_settings: {
          ...BOUNDED_EXPORT_SETTINGS,
          max_threads: 1,
          engine_file_truncate_on_insert: 1,
        },
      });
      yield { path: out, rows };
    }
  }

  /**
   * The same CSV as {@link csv}, written by the embedded engine itself and appended to the file at
   * `path` (which the caller may have started with a BOM and a header row), streamed to disk by the
   * engine (several times faster than passing the text through JavaScript), in keyset-bounded pieces of `pieceRows` rows: after each piece it yields the rows written so far.
   * Everything in the file up to its current size is final at any moment (the engine appends), so a
   * caller can send it while the engine writes. One piece per million rows: each piece is its own
   * query, and smaller pieces cost noticeably more engine time. Embedded chDB only.
   *
   * `knownRows`: how many rows match, when the caller has counted them; at most `pieceRows` of them
   * are written in one query without looking for piece boundaries first (that look reads the
   * sorting key of every row up to the boundary).
   */
  async *appendCsvFile(
    query: ExportQuery,
    path: string,
    pieceRows = 1_000_000,
    knownRows?: number,
  ): AsyncGenerator<number> {
    const select = await exportSelect(this.t, query, true);
    if (!select) return;
    const onePiece = knownRows !== undefined && knownRows <= pieceRows;
    const ranges = onePiece
      ? [{ source: `${this.t.table} ${select.filter}`, params: select.params, last: true }]
      : this.#keyRanges(select.filter, select.params, pieceRows);
    let written = 0;
    for await (const range of ranges) {
      await this.t.client.command({
        query: `INSERT INTO FUNCTION file({out:String}, 'CSV')
                SELECT ${select.fields.join(', ')} FROM ${range.source} ORDER BY file_id, sheet, row_number`,
        query_params: { ...range.params, out: path },
        clickhouse_settings: {
          engine_file_truncate_on_insert: 0,
          ...(onePiece ? ONE_PIECE_EXPORT_SETTINGS : BOUNDED_EXPORT_SETTINGS),
        },
      });
      if (range.last) return;
      written += pieceRows;
      yield written;
    }
  }

  /**
   * Every row of an export in pieces of `batchRows` rows, as `format` text of the `fields`
   * expression list, read with keyset bounds on the sort key (the last key of each piece is found
   * first), so each query reads one piece and memory stays bounded. `rows` is exact for full
   * pieces; for the last one it counts lines (right for TabSeparatedRaw rows without line breaks).
   */
  async *#readRanges(
    select: { filter: string; params: Record<string, unknown> },
    /** The piece's query, given its source (`rows WHERE …` with the piece's bounds). */
    dataQuery: (source: string) => string,
    format: 'CSV' | 'TabSeparatedRaw',
    batchRows: number,
    /** Parameters of piece `index`'s query (0-based). */
    pieceParams: (index: number) => Record<string, unknown> = () => ({}),
  ): AsyncGenerator<{ text: string; rows: number }> {
    let index = 0;
    for await (const range of this.#keyRanges(select.filter, select.params, batchRows)) {
      const rs = await this.t.client.query({
        query: dataQuery(range.source),
        query_params: { ...range.params, ...pieceParams(index++) },
        format,
        clickhouse_settings: WIDE_QUERY_SETTINGS,
      });
      const text = await rs.text();
      if (text) yield { text, rows: range.last ? countLines(text) : batchRows };
    }
  }

  /**
   * Every row passing `filter` (CompiledQuery.filter), as consecutive key ranges of `count` rows in
   * sort-key order (the last may be shorter): the source (`rows WHERE …`) and parameters that
   * select exactly one range, and
   * whether more follow. The key ending each range is found first (one small query), so a query over
   * a range reads only that range.
   */
  async *#keyRanges(
    filter: string,
    params: Record<string, unknown>,
    count: number,
  ): AsyncGenerator<{ source: string; params: Record<string, unknown>; last: boolean }> {
    let previous: RowKey | null = null;
    for (;;) {
      const after = keyBound('>', previous, 'after');
      const edge = await this.t.client.query({
        query: `SELECT file_id, sheet, row_number FROM ${this.t.table} ${filter} ${after.sql}
                ORDER BY file_id, sheet, row_number LIMIT 1 OFFSET {offset:UInt64}`,
        query_params: { ...params, ...after.params, offset: count - 1 },
        format: 'JSONCompactEachRow',
      });
      const [edgeRow] = await edge.json<[string, string, number]>();
      const end: RowKey | null = edgeRow ? [edgeRow[0], edgeRow[1], Number(edgeRow[2])] : null;
      const upTo = keyBound('<=', end, 'to');
      yield {
        source: `${this.t.table} ${filter} ${after.sql} ${upTo.sql}`,
        params: { ...params, ...after.params, ...upTo.params },
        last: !end,
      };
      if (!end) return;
      previous = end;
    }
  }
}
