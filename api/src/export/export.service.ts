import { Readable, type Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { format as csvFormat } from 'fast-csv';
import type { FileRow, RowQuery, Storage, StoredFileType } from '@sift/clickhouse';
import type { z } from 'zod';
import { unionColumns, type exportRequestSchema, type PreprocessingPreview } from '@sift/shared/contracts';
import { BadRequestError } from '../errors.ts';
import { applyRules, splitPairs, type SplitRule } from './preprocessing.ts';
import type { SearchService } from '../search/search.service.ts';
import { rowXml } from '@sift/shared/ooxml';
import { neutralise } from '@sift/shared/csv-injection';
import { XLSX_ROWS_PER_SHEET, XlsxStreamWriter } from './xlsx-writer.ts';
import { SEND_PIECE_BYTES } from './send-file.ts';

export type ParsedExportRequest = z.output<typeof exportRequestSchema>;

const META_COLUMNS = ['File', 'Sheet', 'Row'];

/** The content type of a CSV export (UTF-8, with a BOM). */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
/** The content type of an XLSX export. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `name` made safe as a download name, plus the format's extension. */
export function exportFilename(
  format: 'CSV' | 'XLSX',
  custom: string | undefined,
  fileType: StoredFileType,
): string {
  const safe = (custom ?? '')
    .replace(/\.(csv|xlsx)$/i, '')
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_')
    .trim();
  const base =
    safe ||
    `${fileType === 'AUTHOR' ? 'authors_search_results' : 'search_results'}_${new Date().toISOString().slice(0, 10)}`;
  return `${base}.${format.toLowerCase()}`;
}

/** An export about to be written: where it goes and what it holds. */
export interface PreparedExport {
  filename: string;
  format: 'CSV' | 'XLSX';
  contentType: string;
  /** Columns written (data columns plus File, Sheet and Row when metadata is included). */
  columnCount: number;
  /** Streams the matching rows into `out` (never holding the whole result), then ends `out`. */
  write(out: Writable): Promise<number>;
  /**
   * When offered (faster): writes the export into a new file at this path itself, piece by piece,
   * only ever appending, so everything in the file up to its current size is final at any moment
   * (the caller sends it while it is written). Yields after each piece; returns the row count.
   */
  writeFile?(file: string): AsyncGenerator<void, number>;
}

/** Exports of search results, streamed to CSV or XLSX. */
export class ExportService {
  constructor(
    private readonly storage: Storage,
    private readonly search: SearchService,
    /** Where the engine writes intermediate files (`DATA_DIR/tmp`). */
    private readonly scratchDir: string,
  ) {}

  /**
   * What pre-processing will do to this export: matching rows, rows after the rules, and the first
   * 2 rows a rule expands (up to 3 pairs each). Reads only the rules' columns of every matching row.
   */
  async preview(ownerId: string, request: ParsedExportRequest): Promise<PreprocessingPreview> {
    const rules = request.preprocessingRules.filter((r) => r.enabled);
    const files = await this.search.files(ownerId, request.fileType ?? 'GENERAL', request);
    const preview: PreprocessingPreview = { originalCount: 0, processedCount: 0, expansionDetails: [] };
    const rows = this.storage.rows.scan({ ...matching(files, request), headers: ruleColumns(rules) });
    for await (const batch of rows) {
      for (const hit of batch) {
        const rowIndex = preview.originalCount++;
        preview.processedCount += applyRules(rules, hit.cells).length;
        if (preview.expansionDetails.length >= PREVIEW_EXAMPLES) continue;
        for (const rule of rules) {
          const pairs = splitPairs(rule, hit.cells);
          if (pairs.length < 2) continue;
          preview.expansionDetails.push({
            ruleName: rule.name,
            rowIndex,
            sourceColumn: rule.sourceColumn,
            targetColumn: rule.targetColumn,
            originalSourceValue: hit.cells[rule.sourceColumn] ?? '',
            originalTargetValue: hit.cells[rule.targetColumn] ?? '',
            matchedPairs: pairs.slice(0, PREVIEW_PAIRS),
          });
          break;
        }
      }
    }
    return preview;
  }

  async prepare(ownerId: string, request: ParsedExportRequest): Promise<PreparedExport> {
    const fileType: StoredFileType = request.fileType ?? 'GENERAL';
    const files = await this.search.files(ownerId, fileType, request);
    const available = unionColumns(files);
    const columns = request.columns?.length
      ? request.columns.filter((c) => available.includes(c))
      : available;
    if (request.columns?.length && !columns.length) {
      throw new BadRequestError('Please select at least one column to export', 'NO_COLUMNS');
    }
    const names = new Map(files.map((f) => [f.id, f.originalFilename]));
    const rules = activeRules(request);
    const rows = this.storage.rows.scan({
      ...matching(files, request),
      // The rules' columns are read even when they are not exported.
      headers: [...new Set([...columns, ...ruleColumns(rules)])],
    });
    const header = request.includeMetadata ? [...META_COLUMNS, ...columns] : columns;
    // A CSV opened in a spreadsheet program runs a cell that starts a formula; an xlsx cell is an
    // inline string, never a formula, so it keeps its exact value.
    const cell = request.format === 'CSV' ? neutralise : (value: string) => value;
    async function* records(): AsyncGenerator<string[]> {
      for await (const batch of rows) {
        for (const hit of batch) {
          const meta = request.includeMetadata
            ? [cell(names.get(hit.fileId) ?? ''), cell(hit.sheet), String(hit.sourceRow ?? hit.rowNumber)]
            : [];
          for (const row of rules.length ? applyRules(rules, hit.cells) : [hit.cells]) {
            yield [...meta, ...columns.map((c) => cell(row[c] ?? ''))];
          }
        }
      }
    }
    const filename = exportFilename(request.format, request.customFilename, fileType);
    const query = { ...matching(files, request), columns, metadata: request.includeMetadata };
    const storage = this.storage;
    if (request.format === 'CSV') {
      const headerRow = request.includeHeaders ? header.map(cell) : null;
      return {
        filename,
        format: 'CSV',
        columnCount: header.length,
        contentType: CSV_CONTENT_TYPE,
        // Without row expansion the engine writes the CSV itself, far faster than the JavaScript
        // writer; pre-processing rules need the rows in JavaScript.
        write: rules.length
          ? (out) => writeCsv(out, headerRow, records())
          : async (out) => {
              const n = await storage.rows.count(query);
              await writeEngineCsv(out, headerRow, storage.rows.csv(query));
              return n;
            },
        // Embedded, the engine can write the whole file itself, faster still.
        ...(rules.length || !storage.embedded
          ? {}
          : {
              async *writeFile(file: string) {
                await writeFile(file, `\uFEFF${headerRow ? csvLine(headerRow) : ''}`);
                const n = await storage.rows.count(query);
                yield; // the BOM and the header
                for await (const _ of storage.rows.appendCsvFile(query, file, undefined, n)) yield;
                return n;
              },
            }),
      };
    }
    const headerXml = request.includeHeaders ? rowXml(header, 1) : null;
    const sheet = { rows: XLSX_ROWS_PER_SHEET, headerRows: headerXml ? 1 : 0 };
    return {
      filename,
      format: 'XLSX',
      columnCount: header.length,
      contentType: XLSX_CONTENT_TYPE,
      // Without row expansion the engine writes the worksheet rows' XML itself.
      // Embedded, each sheet's rows go into a file the engine writes, then into the zip as they are
      // (no rows through JavaScript strings, which is faster than passing the pieces through).
      write: (out) =>
        writeWorkbook(
          out,
          headerXml,
          rules.length
            ? (workbook) => fillFromRecords(workbook, records())
            : storage.embedded
              ? (workbook) => fillFromSheetFiles(workbook, storage, query, sheet, this.scratchDir)
              : (workbook) => fillFromPieces(workbook, storage.rows.xlsxRows(query, sheet)),
        ),
    };
  }
}

/** The rows an export or preview reads: the request's criteria and sheets over `files`. */
function matching(files: FileRow[], request: ParsedExportRequest): RowQuery {
  return {
    files,
    criteria: request.searchCriteria,
    matchAccents: request.matchAccents,
    everyCopy: request.everyCopy,
    sheets: request.sheetNames,
  };
}

/** The columns a set of rules reads (each once). */
function ruleColumns(rules: SplitRule[]): string[] {
  return [...new Set(rules.flatMap((r) => [r.sourceColumn, r.targetColumn]))];
}

/** The enabled split rules of a request that asks for pre-processing (none otherwise). */
function activeRules(request: ParsedExportRequest): SplitRule[] {
  return request.enablePreprocessing ? request.preprocessingRules.filter((r) => r.enabled) : [];
}

/** Examples shown in a preview, and pairs shown per example (spec). */
const PREVIEW_EXAMPLES = 2;
const PREVIEW_PAIRS = 3;

async function writeCsv(
  out: Writable,
  header: string[] | null,
  records: AsyncIterable<string[]>,
): Promise<number> {
  let n = 0;
  async function* counted(): AsyncGenerator<string[]> {
    if (header) yield header;
    for await (const r of records) {
      n++;
      yield r;
    }
  }
  // A BOM so Excel opens the UTF-8 text with the right characters. pipeline() stops the source
  // and fails if `out` fails or closes early.
  await pipeline(
    Readable.from(counted()),
    csvFormat<string[], string[]>({ writeBOM: true, quoteColumns: false }),
    out,
  );
  return n;
}

/** One CSV line with every field quoted, as the engine writes them. */
const csvLine = (fields: string[]) => `${fields.map((f) => `"${f.replaceAll('"', '""')}"`).join(',')}\n`;

/** CSV pieces from the engine behind a BOM and the header row (quoted the way the engine quotes). */
async function writeEngineCsv(
  out: Writable,
  header: string[] | null,
  pieces: AsyncIterable<string>,
): Promise<void> {
  async function* text(): AsyncGenerator<string> {
    yield '\uFEFF';
    if (header) yield csvLine(header);
    yield* pieces;
  }
  await pipeline(Readable.from(text()), out);
}

/**
 * An xlsx workbook streamed into `out`: `fill` adds the rows and says how many; then the workbook
 * is finished, or, if anything failed, abandoned (`out` destroyed, nothing passes for complete).
 */
async function writeWorkbook(
  out: Writable,
  header: string | null,
  fill: (workbook: XlsxStreamWriter) => Promise<number>,
): Promise<number> {
  const workbook = new XlsxStreamWriter(out, header);
  try {
    const n = await fill(workbook);
    await workbook.finish();
    return n;
  } finally {
    await workbook.abandon();
  }
}

/** Rows from JavaScript (pre-processing rules). */
async function fillFromRecords(
  workbook: XlsxStreamWriter,
  records: AsyncIterable<string[]>,
): Promise<number> {
  let n = 0;
  for await (const r of records) {
    await workbook.addRow(r);
    n++;
  }
  return n;
}

/**
 * Rows whose XML the engine wrote into a file per sheet under `scratchDir`
 * (RowsRepository.xlsxSheetFiles); each file is removed once it is in the workbook, and whatever is
 * left after a failure is removed too.
 */
async function fillFromSheetFiles(
  workbook: XlsxStreamWriter,
  storage: Storage,
  query: Parameters<Storage['rows']['xlsxSheetFiles']>[0],
  sheet: Parameters<Storage['rows']['xlsxSheetFiles']>[1],
  scratchDir: string,
): Promise<number> {
  await mkdir(scratchDir, { recursive: true });
  const base = path.join(scratchDir, `xlsx-${randomUUID()}`);
  const written: string[] = [];
  const fileOf = (index: number) => {
    written.push(`${base}.sheet${index + 1}`);
    return written[written.length - 1]!;
  };
  let n = 0;
  try {
    for await (const part of storage.rows.xlsxSheetFiles(query, sheet, fileOf)) {
      await workbook.addSheet(createReadStream(part.path, { highWaterMark: SEND_PIECE_BYTES }), part.rows);
      await rm(part.path, { force: true });
      n += part.rows;
    }
  } finally {
    await Promise.all(written.map((f) => rm(f, { force: true })));
  }
  return n;
}

/** Rows whose XML the engine wrote, in pieces through the client (RowsRepository.xlsxRows). */
async function fillFromPieces(
  workbook: XlsxStreamWriter,
  pieces: AsyncIterable<{ text: string; rows: number }>,
): Promise<number> {
  let n = 0;
  for await (const piece of pieces) {
    await workbook.addRows(piece.text, piece.rows);
    n += piece.rows;
  }
  return n;
}
