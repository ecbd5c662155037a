import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { MAX_NEW_COLUMNS_PER_FILE, type ColumnBudget, type RowBatch, type Storage } from '@sift/clickhouse';

/** What one upload may add to the physical columns of `rows` (MAX_NEW_COLUMNS_PER_FILE). */
export const newColumnBudget = (): ColumnBudget => ({ remaining: MAX_NEW_COLUMNS_PER_FILE });

/** Rows per ClickHouse insert (the architecture measures 10k–100k as the sweet spot). */
export const INSERT_BATCH_ROWS = 20_000;
/**
 * Accumulates the rows of one target file (GENERAL or its AUTHOR file) sheet by sheet and loads
 * them in batches of INSERT_BATCH_ROWS, the next batch being parsed while one loads.
 *
 * With a `scratchDir` (embedded engine only) each batch is written there as a CSV file and loaded
 * with `INSERT … SELECT … FROM file()`: the engine spends less CPU on it than on the same rows sent
 * as JSONCompactEachRow, which matters on a 2-core machine where parsing has the other core
 * (docs/benchmarks.md, "Loading parsed rows through batch files").
 * Rows are written to the batch file as they arrive (see add), so a batch is never held as cells.
 * Without one, or for rows with headers past the column guard, batches go through the client.
 */
export class RowBatchLoader {
  readonly columnNames: string[] = [];
  /** Header → physical column; no prototype, so any header name is an ordinary key. */
  readonly columnMap = Object.create(null) as Record<string, string>;
  readonly sheetNames: string[] = [];
  totalRows = 0;
  #sheet = '';
  #headers: string[] = [];
  /** Rows of the current batch kept as cells: before its headers have columns, or for the client. */
  #buffer: string[][] = [];
  /** The row number of each row of `#buffer`. */
  #bufferRowNumbers: number[] = [];
  /** CSV records of the current batch not yet written to its batch file, UTF-8 (RECORD_BYTES). */
  #records = Buffer.allocUnsafe(0);
  #recordBytes = 0;
  /** The current batch's file, opened with its first write. */
  #batchFile: { path: string; handle: FileHandle } | null = null;
  #batchRows = 0;
  /** #columns() for the headers it was worked out for (headers are replaced, never changed). */
  #fileColumns: { headers: string[]; columns: string[] | null } | null = null;
  #firstRowNumber = 1;
  /** The current headers have not been given columns yet (see startSheet). */
  #unregistered = false;
  /** The insert in flight: parsing the next batch overlaps with it (at most one at a time). */
  #inFlight: Promise<void> = Promise.resolve();

  /** Batch files written so far (their names). */
  #batchFiles = 0;

  constructor(
    private readonly storage: Storage,
    readonly fileId: string,
    /** Directory for batch files (must exist); unset → batches are sent through the client. */
    private readonly scratchDir?: string,
    /** Physical columns the upload may still add, shared by its loaders (the rest overflow). */
    private readonly columnBudget: ColumnBudget = newColumnBudget(),
  ) {}

  /**
   * Starts a sheet whose rows are aligned with `headers`. The headers get their columns with the
   * first batch of rows, which is the sample that decides each new column's skip index; pass
   * `sample` (rows aligned with `headers`) to create them now instead.
   */
  async startSheet(sheet: string, headers: string[], sample?: string[][]): Promise<void> {
    await this.flush();
    this.#sheet = sheet;
    this.#headers = headers;
    this.#unregistered = true;
    if (!this.sheetNames.includes(sheet)) this.sheetNames.push(sheet);
    if (sample) await this.#register(sample);
  }

  /** Replaces the current sheet's headers (grown by a ragged row longer than the header row). */
  async setHeaders(headers: string[]): Promise<void> {
    await this.flush();
    this.#headers = headers;
    this.#unregistered = true;
  }

  get headers(): string[] {
    return this.#headers;
  }

  /**
   * Adds one row (cells aligned with the headers). Once the headers have columns, a row bound for a
   * batch file is turned into its CSV record at once and written out in pieces of RECORD_BYTES, so
   * the rows of a batch are not kept: kept until the batch is full, they outlived the young
   * generation and piled up in the old one.
   */
  async add(rowNumber: number, cells: string[]): Promise<void> {
    if (!this.#batchRows) this.#firstRowNumber = rowNumber;
    // Each row carries its number, so rows that skip numbers (blank rows left out, an xlsx that
    // numbers its rows 3, 5, 7…) still make full batches: a batch a gap made one insert a row.
    if (this.#columns()) {
      await this.#addRecord(csvRecord([String(rowNumber), ...cells]));
    } else {
      this.#buffer.push(cells);
      this.#bufferRowNumbers.push(rowNumber);
    }
    this.#batchRows++;
    this.totalRows++;
    if (this.#batchRows >= INSERT_BATCH_ROWS) await this.flush();
  }

  /** Hands the current batch to an insert without waiting for it (after the previous one has ended). */
  async flush(): Promise<void> {
    if (!this.#batchRows) return;
    if (this.#unregistered) await this.#register(this.#buffer);
    const batch: RowBatch = {
      fileId: this.fileId,
      sheet: this.#sheet,
      headers: this.#headers,
      columnMap: Object.assign(Object.create(null), this.columnMap) as Record<string, string>,
      firstRowNumber: this.#firstRowNumber,
      rows: this.#buffer,
      rowNumbers: this.#bufferRowNumbers,
    };
    const columns = this.#columns();
    let file: string | null = null;
    if (columns) {
      for (const [k, cells] of this.#buffer.entries())
        await this.#addRecord(csvRecord([String(this.#bufferRowNumbers[k]), ...cells]));
      batch.rows = [];
      await this.#writeRecords();
      file = this.#batchFile!.path;
      await this.#closeBatchFile();
    }
    this.#buffer = [];
    this.#bufferRowNumbers = [];
    this.#batchRows = 0;
    await this.#inFlight;
    this.#inFlight = file ? this.#loadFile(batch, columns!, file) : this.storage.rows.insert(batch);
    // Marked handled here; the failure still surfaces at the next flush or at finish().
    this.#inFlight.catch(() => undefined);
  }

  /** Waits for the insert in flight to end, whatever its outcome (before cleaning up after a failure). */
  async settle(): Promise<void> {
    await this.#closeBatchFile().catch(() => undefined);
    await this.#inFlight.catch(() => undefined);
  }

  /** Flushes and waits until every row is inserted. */
  async finish(): Promise<void> {
    await this.flush();
    if (this.#unregistered) await this.#register([]);
    await this.#inFlight;
  }

  /** The current headers' columns when rows go through a batch file, else null (see the class). */
  #columns(): string[] | null {
    if (!this.scratchDir || this.#unregistered) return null;
    if (this.#fileColumns?.headers !== this.#headers) {
      const columns = this.#headers.map((h) => this.columnMap[h] ?? '');
      this.#fileColumns = { headers: this.#headers, columns: columns.includes('') ? null : columns };
    }
    return this.#fileColumns.columns;
  }

  async #addRecord(record: string): Promise<void> {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.#recordBytes + record.length * 3 > this.#records.length) {
      await this.#writeRecords();
      if (record.length * 3 > this.#records.length)
        this.#records = Buffer.allocUnsafe(Math.max(RECORD_BYTES, record.length * 3));
    }
    this.#recordBytes += this.#records.write(record, this.#recordBytes);
  }

  async #writeRecords(): Promise<void> {
    if (!this.#batchFile) {
      const file = path.join(this.scratchDir!, `${this.fileId}-${this.#batchFiles++}.csv`);
      this.#batchFile = { path: file, handle: await open(file, 'w') };
    }
    if (this.#recordBytes) await this.#batchFile.handle.write(this.#records, 0, this.#recordBytes);
    this.#recordBytes = 0;
  }

  async #closeBatchFile(): Promise<void> {
    const file = this.#batchFile;
    this.#batchFile = null;
    await file?.handle.close();
  }

  async #loadFile(batch: RowBatch, columns: string[], file: string): Promise<void> {
    try {
      await this.storage.rows.loadCsvFile({
        fileId: batch.fileId,
        sheet: batch.sheet,
        path: file,
        delimiter: ',',
        columns,
        firstRowNumber: batch.firstRowNumber,
        rowNumbered: true,
      });
    } finally {
      await rm(file, { force: true });
    }
  }

  async #register(sample: string[][]): Promise<void> {
    this.#unregistered = false;
    const headers = this.#headers;
    const fresh = headers.filter((h) => !(h in this.columnMap));
    if (!fresh.length) return;
    const map = await this.storage.rows.ensureColumns(headers, sample, this.columnBudget);
    for (const h of fresh) this.columnMap[h] = map[h]!;
    this.columnNames.push(...fresh);
  }
}

/** A CSV field that must be quoted: a quote, comma or line break, or whitespace at either end (the engine's CSV reader skips leading whitespace of an unquoted field at the start of a record). */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Bytes of CSV records gathered before they are written to the batch file. */
const RECORD_BYTES = 1 << 20;

/**
 * One row as an RFC 4180 CSV record with its line feed (a field is quoted when NEEDS_QUOTES says
 * so). A row without cells is written as one empty quoted field, so every row is a record and row
 * numbers stay aligned.
 */
export function csvRecord(cells: string[]): string {
  if (!cells.length) return '""\n';
  let record = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i]!;
    record += (i ? ',' : '') + (NEEDS_QUOTES.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  }
  return `${record}\n`;
}
