import { createWriteStream } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { ColumnBudget, FileRow, Storage } from '@sift/clickhouse';
import { AUTHORS_HEADER, EMAILS_HEADER, FULL_NAMES_HEADER } from '@sift/shared/author-files';
import { authorEntries, authorHeaders } from './author-rows.ts';
import { csvRecord } from './row-batch-loader.ts';
import type { AuthorSheet } from './types.ts';

/** What deriving an AUTHOR file needs: where the rows are, and where progress goes. */
export interface AuthorDerivation {
  storage: Storage;
  /** The GENERAL file (loaded) and the AUTHOR file's id. */
  general: Pick<FileRow, 'id' | 'columnMap' | 'totalRows'>;
  authorId: string;
  /** Scratch directory for the pairs files. */
  tmpDir: string;
  /** Physical columns this upload may still add (the Email Match column). */
  columnBudget: ColumnBudget;
  /** Stage progress, 0–100; may throw to stop the derivation (the process is stopping). */
  progress: (stageProgress: number) => Promise<void>;
}

/** The AUTHOR file's shape once its rows are written. */
export interface DerivedAuthorFile {
  columnNames: string[];
  columnMap: Record<string, string>;
  sheetNames: string[];
  totalRows: number;
}

/**
 * GENERAL rows read back a query: a smaller batch is parsed (JSON) in less time on the event loop
 * the API shares, at the cost of more queries.
 */
const SCAN_BATCH_ROWS = 5_000;
/** Rows paired between two turns of the event loop (a power of two). */
const YIELD_EVERY_ROWS = 1_024;

/**
 * Writes the AUTHOR file's rows from the loaded GENERAL rows of `sheets`. Only the author cells
 * pass through JavaScript: each GENERAL row's `Authors`, `Author Full Names` and `Email Addresses`
 * are read back and paired (authorEntries) into a scratch CSV file a sheet, numbered in source
 * order across the file; then the engine writes each sheet's AUTHOR rows by joining the pairs with
 * the GENERAL rows and copying every other column itself (RowAuthors.derive). The pairs file is
 * removed afterwards, whatever happens.
 * Rejects with the engine's error, or with what `progress` throws.
 */
export async function deriveAuthorFile(
  d: AuthorDerivation,
  sheets: AuthorSheet[],
): Promise<DerivedAuthorFile> {
  const { storage, general } = d;
  const shape: DerivedAuthorFile = {
    columnNames: [],
    columnMap: Object.create(null) as Record<string, string>,
    sheetNames: [],
    totalRows: 0,
  };
  const cells = [AUTHORS_HEADER, EMAILS_HEADER, FULL_NAMES_HEADER];
  const source = {
    id: general.id,
    columnMap: Object.fromEntries(
      cells.filter((h) => h in general.columnMap).map((h) => [h, general.columnMap[h]!]),
    ),
  } as FileRow;
  const pairsPath = path.join(d.tmpDir, `author-pairs-${general.id}.csv`);
  const stopOnError: (() => void)[] = [];
  await mkdir(d.tmpDir, { recursive: true });
  try {
    let next = 1;
    let read = 0;
    for (const { sheet, headers } of sheets) {
      const names = authorHeaders(headers);
      const match = names[names.length - 1]!;
      const { [match]: matchColumn = '' } = await storage.rows.ensureColumns([match], [], d.columnBudget);
      const out = createWriteStream(pairsPath);
      const written = finished(out);
      written.catch(() => undefined); // awaited below
      stopOnError.push(() => out.destroy());
      const scan = storage.rows.scan({ files: [source], criteria: {}, sheets: [sheet] }, SCAN_BATCH_ROWS);
      for await (const batch of scan) {
        let chunk = '';
        for (const [i, hit] of batch.entries()) {
          // This is the API's thread too (all in one process): let its requests in between.
          if (i && (i & (YIELD_EVERY_ROWS - 1)) === 0) await nextTurn();
          const fullNames = headers.includes(FULL_NAMES_HEADER) ? (hit.cells[FULL_NAMES_HEADER] ?? '') : '';
          for (const e of authorEntries(
            hit.cells[AUTHORS_HEADER] ?? '',
            fullNames,
            hit.cells[EMAILS_HEADER] ?? '',
          )) {
            chunk += csvRecord([
              String(hit.rowNumber),
              String(next++),
              e.author,
              e.fullName,
              e.email,
              e.match,
            ]);
          }
        }
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
        read += batch.length;
        await d.progress(Math.min(90, Math.floor((read / Math.max(1, general.totalRows)) * 90)));
      }
      out.end();
      await written;
      const columns = Object.fromEntries(headers.map((h) => [h, general.columnMap[h] ?? '']));
      await storage.rows.authors.derive({
        generalId: general.id,
        authorId: d.authorId,
        sheet,
        columns,
        pairsPath,
        replaced: [
          { header: AUTHORS_HEADER, column: columns[AUTHORS_HEADER]!, value: 'author' },
          { header: EMAILS_HEADER, column: columns[EMAILS_HEADER]!, value: 'email' },
          ...(headers.includes(FULL_NAMES_HEADER)
            ? [
                {
                  header: FULL_NAMES_HEADER,
                  column: columns[FULL_NAMES_HEADER]!,
                  value: 'full_name' as const,
                },
              ]
            : []),
          { header: match, column: matchColumn, value: 'email_match' },
        ],
      });
      shape.sheetNames.push(sheet);
      for (const h of names) {
        if (h in shape.columnMap) continue;
        shape.columnNames.push(h);
        shape.columnMap[h] = h === match ? matchColumn : columns[h]!;
      }
    }
  } catch (e) {
    for (const stop of stopOnError) stop();
    throw e;
  } finally {
    await rm(pairsPath, { force: true });
  }
  shape.totalRows = await storage.rows.countFile(d.authorId);
  await d.progress(100);
  return shape;
}
