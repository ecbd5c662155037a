import { stat } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  readIsolated,
  trimRow,
  headerNames,
  widenHeaders,
  type ReadProgress,
  type SpreadsheetFormat,
  headerRowAt,
  headerRowDecidedAt,
} from '@sift/spreadsheet';
import { hasAuthorColumns } from './author-rows.ts';
import { RowBatchLoader } from './row-batch-loader.ts';
import { withBatchDir } from './scratch.ts';
import {
  noRowToHead,
  noteHeaderRow,
  noteWidened,
  progressDue,
  type AuthorSheet,
  type LoadContext,
  type LoadedFiles,
} from './types.ts';

/** Rows handled between two turns of the event loop (a power of two). */
const YIELD_EVERY_ROWS = 256;

/**
 * Loads every sheet by parsing in JavaScript (xlsx streaming, legacy xls, or CSV when the engine
 * cannot read the file itself): header row = first non-empty row, ragged rows widen the sheet,
 * the sheets with author columns noted for the AUTHOR file. Progress by bytes read. The file is read in a worker thread of
 * its own with a bounded heap (readIsolated), so a hostile file fails alone.
 */
export async function loadWithParsers(ctx: LoadContext, format: SpreadsheetFormat): Promise<LoadedFiles> {
  return withBatchDir(ctx, (dir) => loadRows(ctx, format, dir));
}

async function loadRows(
  ctx: LoadContext,
  format: SpreadsheetFormat,
  batchDir?: string,
): Promise<LoadedFiles> {
  const general = new RowBatchLoader(ctx.storage, ctx.fileId, batchDir, ctx.columnBudget);
  const authorSheets: AuthorSheet[] = [];
  let sheet: string | null = null;
  let headerSeen = false;
  /** The header row's width: what rows wider than it added is noted. */
  let widenedFrom = 0;
  let authorSheet: AuthorSheet | null = null;
  const read: ReadProgress = { bytesRead: 0 };
  const size = Math.max(1, (await stat(ctx.filePath)).size);
  const due = progressDue(Date.now());
  let seen = 0;
  /** A row of the current sheet once its header row is known: the header, or a data row. */
  const handle = async (rowNumber: number, cells: string[]): Promise<void> => {
    if (!headerSeen) {
      headerSeen = true;
      const headers = headerNames(cells);
      noteHeaderRow(ctx, sheet!, rowNumber, cells, headers);
      widenedFrom = headers.length;
      await general.startSheet(sheet!, headers);
      authorSheet = hasAuthorColumns(headers) ? { sheet: sheet!, headers } : null;
      if (authorSheet) authorSheets.push(authorSheet);
      return;
    }
    if (cells.length > general.headers.length) {
      await general.setHeaders(widenHeaders(general.headers, cells.length));
      noteWidened(ctx, sheet!, general.headers.length - widenedFrom);
      if (authorSheet) authorSheet.headers = general.headers;
    }
    await general.add(rowNumber, cells);
  };
  // A sheet's first non-blank rows, held until its header row is known (title rows above it are
  // left out: headerRowIndex).
  let leading: { rowNumber: number; cells: string[] }[] = [];
  const chosen = () => (sheet === null ? undefined : ctx.headerRows?.[sheet]);
  const flushLeading = async () => {
    const held = leading;
    leading = [];
    if (!held.length) return;
    const at = headerRowAt(held, chosen());
    if (at < 0) throw noRowToHead(sheet!, chosen()!);
    for (const r of held.slice(at)) await handle(r.rowNumber, r.cells);
  };
  try {
    const rows = readIsolated(ctx.filePath, ctx.originalName, read, format, ctx.readIsolation, ctx.encoding);
    for await (const row of rows) {
      if ((++seen & (YIELD_EVERY_ROWS - 1)) === 0) {
        // Rows already read arrive as resolved promises, which never let the event loop run: a
        // whole batch would be handled before a request of the API's (this is its thread) is.
        await nextTurn();
        // Progress by bytes read.
        if (due()) await ctx.progress(Math.min(99, Math.floor((read.bytesRead / size) * 100)));
      }
      if (row.sheet !== sheet) {
        await flushLeading();
        sheet = row.sheet;
        headerSeen = false;
      }
      const cells = trimRow(row.cells);
      if (!cells.some((c) => c.trim())) continue; // blank rows carry nothing
      if (headerSeen) {
        await handle(row.rowNumber, cells);
        continue;
      }
      leading.push({ rowNumber: row.rowNumber, cells });
      if (headerRowDecidedAt(leading, chosen())) await flushLeading();
    }
    await flushLeading();
    await ctx.progress(100);
    await general.finish();
  } catch (e) {
    // No insert may land after the caller's clean-up.
    await general.settle();
    throw e;
  }
  return { general, authorSheets };
}
