import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClickHouseSettings } from '@clickhouse/client';
import { ident, stringLiteral } from '../sql.ts';
import { RAGGED_MARKER, rowWriteQueryId, type CsvFileLoad, type RowBatch, type RowsTable } from './types.ts';

/**
 * The Linux nice value of the engine threads that run an ingest's queries (loads, AUTHOR rows) and
 * merges: searches and suggestions run at 0, so when both want the cores the user's query gets
 * them first, and an ingest on an idle machine runs as fast as before (docs/benchmarks.md, "Ingest
 * yields to searches"). The engine applies it only with CAP_SYS_NICE; without, everything runs at 0.
 */
export const INGEST_NICE = 10;

/** The query setting that runs a query's engine threads at INGEST_NICE. */
export const INGEST_PRIORITY = { os_threads_nice_value_query: INGEST_NICE } as const;

/**
 * Engine settings that keep `INSERT … SELECT FROM file()` in bounded memory: one reading thread
 * with `pread` (the default mmap counts the whole file in the process's RSS), small parse blocks
 * and parts of at most 25k rows / 8 MB, so the text-index dictionaries built per part stay small
 * (docs/benchmarks.md, "Loading a CSV with `file()`").
 */
const BOUNDED_LOAD_SETTINGS = {
  ...INGEST_PRIORITY,
  max_threads: 1,
  max_block_size: '8192',
  input_format_parallel_parsing: 0,
  storage_file_read_method: 'pread',
  min_insert_block_size_rows: '25000',
  min_insert_block_size_bytes: String(8 * 1024 * 1024),
} as const;

/** Loading rows into `rows`: batches from JavaScript, CSV bodies read by the embedded engine. */
export class RowLoading {
  constructor(private readonly t: RowsTable) {}

  /** Inserts one batch (JSONCompactEachRow; callers batch tens of thousands of rows). */
  async insert(batch: RowBatch): Promise<void> {
    if (!batch.rows.length) return;
    const physical: string[] = [];
    const overflow: number[] = [];
    const physicalIndex: number[] = [];
    batch.headers.forEach((h, i) => {
      const c = batch.columnMap[h];
      if (c) {
        physical.push(c);
        physicalIndex.push(i);
      } else overflow.push(i);
    });
    if (new Set(physical).size !== physical.length)
      throw new Error('Two headers of one sheet map to one column');
    const values = batch.rows.map((cells, k) => {
      const extra = Object.create(null) as Record<string, string>;
      for (const i of overflow) if (cells[i]) extra[batch.headers[i]!] = cells[i]!;
      return [
        batch.fileId,
        batch.sheet,
        batch.rowNumbers?.[k] ?? batch.firstRowNumber + k,
        ...physicalIndex.map((i) => cells[i] ?? ''),
        extra,
      ];
    });
    await this.t.client.insert({
      table: this.t.table,
      query_id: rowWriteQueryId(batch.fileId),
      format: 'JSONCompactEachRow',
      columns: ['file_id', 'sheet', 'row_number', ...physical, 'extra'] as [string, ...string[]],
      values,
      clickhouse_settings: INGEST_PRIORITY,
    });
  }

  /**
   * Loads a UTF-8 CSV body (no header row) from a local file with `INSERT … SELECT …`: embedded
   * chDB reads it with `file()`, a server is sent its bytes as the body of the INSERT and reads them
   * with `input()` (tab-delimited as `CustomSeparated`: see `recordEnd`). Field i goes to
   * `columns[i]`; row numbers count records from `firstRowNumber`; records with no content are
   * skipped (their numbers are not reused). Quoting as RFC 4180; whitespace and `\N` are kept as
   * text; short records are padded, long ones' extra (empty) fields ignored. `onProgress` is called
   * about every `progressEveryMs` (default 500) with the bytes of the file read so far (embedded:
   * the engine's own count, from `system.processes`; a server: the bytes sent), while it runs. When
   * `onProgress` throws, it is not called again, and the load rejects with its error once the
   * INSERT has settled.
   */
  async loadCsvFile(
    params: CsvFileLoad & {
      onProgress?: (bytesRead: number) => unknown;
      progressEveryMs?: number;
    },
  ): Promise<void> {
    const sent = { bytes: 0 };
    const insert = this.#insertCsvFile(params, sent);
    const { onProgress } = params;
    if (!onProgress) return insert;
    const stop = new AbortController();
    // What `onProgress` threw (the ingest is stopping): kept, not left as a rejection nobody awaits
    // while the INSERT runs on (that took the whole process down), and thrown once it has settled.
    let failed: { error: unknown } | null = null;
    const watch = (async () => {
      const every = params.progressEveryMs ?? 500;
      for (;;) {
        await sleep(every, undefined, { signal: stop.signal }).catch(() => undefined);
        if (stop.signal.aborted) return;
        const bytes = this.t.embedded ? await this.#bytesReadFrom(params.path).catch(() => null) : sent.bytes;
        if (bytes === null || stop.signal.aborted) continue;
        try {
          await onProgress(bytes);
        } catch (error) {
          failed = { error };
          return;
        }
      }
    })();
    try {
      await insert;
    } finally {
      stop.abort();
      await watch;
    }
    if (failed) throw (failed as { error: unknown }).error;
  }

  /**
   * Bytes a running `INSERT … FROM file(path)` has read, from the engine's process list (the query
   * text holds the path as a literal once its parameters are inlined; see PooledConnection), or
   * null when none is running. Runs on another connection of the pool than the INSERT.
   */
  async #bytesReadFrom(path: string): Promise<number | null> {
    const rs = await this.t.client.query({
      query: `SELECT max(read_bytes) AS bytes, count() AS n FROM system.processes
              WHERE query_kind = 'Insert' AND position(query, {needle:String}) > 0`,
      query_params: { needle: `file(${stringLiteral(path)}` },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ bytes: number; n: number }>();
    return row && Number(row.n) > 0 ? Number(row.bytes) : null;
  }

  async #insertCsvFile(params: CsvFileLoad, sent: { bytes: number }): Promise<void> {
    const fields = params.columns.map((_, i) => `f${i}`);
    const probe = params.detectRagged ? [`f${fields.length}`] : [];
    const structure = [
      ...(params.rowNumbered ? ['rn UInt32'] : []),
      ...[...fields, ...probe].map((f) => `${f} String`),
    ].join(', ');
    const blank = fields.map((f) => `trimBoth(${f}) = ''`).join(' AND ');
    const marker = probe.length
      ? `, if(${probe[0]} = '', map(), map({marker:String}, toValidUTF8(${probe[0]})))`
      : '';
    // The body's bytes go in as they are, and a file that is UTF-8 in its first 64 KB may not be
    // further on: an invalid sequence becomes U+FFFD here. Stored as it was, it made every later
    // mutation of its part fail on the text skip index (removeDiacriticsUTF8 refuses it), which
    // stopped deletes and loads for every account sharing the part.
    const valid = fields.map((f) => `toValidUTF8(${f})`);
    const skip = params.skipLines ?? 0;
    // Tab-delimited: CustomSeparated with CSV quoting, which has no setting to skip lines, so the
    // lines before the body are read as records and left out by number.
    const reader =
      params.delimiter === '\t'
        ? {
            format: 'CustomSeparated',
            skipWhere: 'n >= {skip:UInt32} AND',
            skipped: ' - {skip:UInt32}',
            settings: {
              format_custom_escaping_rule: 'CSV' as const,
              format_custom_field_delimiter: '\t',
              format_custom_row_after_delimiter: params.recordEnd ?? '\n',
              input_format_custom_allow_variable_number_of_columns: 1,
            },
          }
        : {
            format: 'CSV',
            skipWhere: '',
            skipped: '',
            settings: {
              input_format_csv_skip_first_lines: String(skip),
              format_csv_delimiter: params.delimiter,
            },
          };
    const rowNumber = params.rowNumbered ? 'rn' : `toUInt32(n + {first:UInt32}${reader.skipped})`;
    // Embedded, the engine reads the file; a server reads the bytes this INSERT sends it.
    const source = this.t.embedded
      ? `file({path:String}, '${reader.format}', {structure:String})`
      : 'input({structure:String})';
    const query = `INSERT INTO ${this.t.table} (file_id, sheet, row_number, ${params.columns.map(ident).join(', ')}${marker ? ', extra' : ''})
              SELECT {fileId:String}, {sheet:String}, ${rowNumber}, ${valid.join(', ')}${marker}
              FROM (SELECT rowNumberInAllBlocks() AS n, * FROM ${source})
              WHERE ${reader.skipWhere} NOT (${blank})`;
    const query_params = {
      fileId: params.fileId,
      sheet: params.sheet,
      first: params.firstRowNumber,
      skip,
      path: params.path,
      structure,
      marker: RAGGED_MARKER,
    };
    const clickhouse_settings: ClickHouseSettings = {
      ...reader.settings,
      input_format_csv_allow_variable_number_of_columns: 1,
      input_format_csv_trim_whitespaces: 0,
      input_format_csv_empty_as_default: 1,
      input_format_csv_allow_cr_end_of_line: 1,
      input_format_csv_detect_header: 0,
      format_csv_null_representation: '',
      input_format_null_as_default: 1,
      format_csv_allow_single_quotes: 0,
      ...BOUNDED_LOAD_SETTINGS,
    };
    if (this.t.embedded) {
      await this.t.client.command({
        query,
        query_params,
        clickhouse_settings,
        query_id: rowWriteQueryId(params.fileId),
      });
      return;
    }
    const result = await this.t.client.exec({
      query_id: rowWriteQueryId(params.fileId),
      query: `${query} FORMAT ${reader.format}`,
      query_params,
      clickhouse_settings,
      values: countingStream(params.path, sent),
    });
    result.stream.resume(); // the INSERT answers nothing worth reading; let its response end
    await finished(result.stream);
  }

  /** Rows of a file loaded with `detectRagged` that had more fields than columns. */
  async countRagged(fileId: string): Promise<number> {
    const rs = await this.t.client.query({
      query: `SELECT count() AS n FROM ${this.t.table} WHERE file_id = {fileId:String} AND mapContains(extra, {marker:String})`,
      query_params: { fileId, marker: RAGGED_MARKER },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number }>();
    return Number(row?.n ?? 0);
  }
}

/** The file at `path` as a stream, counting into `sent.bytes` what has been read of it. */
function countingStream(path: string, sent: { bytes: number }): Readable {
  return createReadStream(path, { highWaterMark: 1 << 20 }).pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent.bytes += chunk.length;
        done(null, chunk);
      },
    }),
  );
}
