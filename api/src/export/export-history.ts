import { exportSeconds } from '@sift/shared/metrics';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { ExportDocument, Storage, StoredDocument } from '@sift/clickhouse';
import { exportKey, type ObjectStore } from '@sift/object-store';
import type { ExportHistoryEntry, PreprocessingPreview } from '@sift/shared/contracts';
import { NotFoundError } from '../errors.ts';
import {
  CSV_CONTENT_TYPE,
  XLSX_CONTENT_TYPE,
  type ExportService,
  type ParsedExportRequest,
  type PreparedExport,
} from './export.service.ts';
import { FileSender, sendFileRange } from './send-file.ts';
import { broadcastStream } from './broadcast-stream.ts';

/**
 * A download a route sends: the name and content type to announce, then `sendTo`, which writes the
 * body to the response (the route ends it) and resolves with `T`. A failure rejects after part of
 * the body may have been sent: the route then destroys the response, so the client sees a failed
 * download, never a short file.
 */
export interface ExportDownload<T> {
  filename: string;
  contentType: string;
  sendTo(res: ServerResponse): Promise<T>;
}

/** While the engine writes an export file, its new bytes are looked for this often, in ms. */
const TAIL_INTERVAL_MS = 15;

/**
 * Runs `writing` (the engine writing `file`, yielding as it goes and returning the row count) and
 * sends the file's bytes to `res` as they reach the disk, so the download runs alongside the
 * engine rather than after each piece of it: the bytes below the file's current size are final
 * (the engine appends). Rejects as soon as the writing fails, with part of the file sent: the
 * caller then destroys the response, so the client sees a failed download, never a short file.
 */
async function sendWhileWritten(
  res: ServerResponse,
  file: string,
  writing: AsyncGenerator<unknown, number>,
): Promise<number> {
  let outcome: { rows: number } | { error: unknown } | null = null;
  let stopped = false;
  const driven = (async () => {
    for (;;) {
      if (stopped) return 0; // no further piece once the download has failed
      const step = await writing.next();
      if (step.done) return step.value;
    }
  })().then(
    (rows) => (outcome = { rows }),
    (error: unknown) => (outcome = { error }),
  );
  const sender = new FileSender(res, file);
  try {
    let sent = 0;
    for (;;) {
      const ended = outcome as { rows: number } | { error: unknown } | null; // read before the size
      if (ended && 'error' in ended) throw ended.error;
      const size = await stat(file).then(
        (s) => s.size,
        () => 0, // not created yet
      );
      if (size > sent) {
        await sender.send(sent, size - 1);
        sent = size;
      } else if (ended) {
        await sender.finish();
        return ended.rows;
      } else {
        await Promise.race([driven, new Promise((resolve) => setTimeout(resolve, TAIL_INTERVAL_MS))]);
      }
    }
  } catch (e) {
    stopped = true;
    await driven; // the piece in hand ends before the caller removes the file
    throw e;
  } finally {
    await sender.close();
  }
}

/**
 * Exports with a history: each export is streamed to the client and, at the same time, written to
 * a file (one per export, a generated name) that is kept in the object store (`exports/<name>`: in
 * place on local disk, else written to scratch and then stored); when it has ended, it is recorded
 * with its row count. A failed or abandoned export leaves neither a file nor a record, and the
 * client's download fails (the response is destroyed) rather than ending as if complete.
 */
export class ExportHistory {
  constructor(
    private readonly storage: Storage,
    private readonly exports: ExportService,
    private readonly objects: ObjectStore,
    /** Where an export is written before it is stored, when the store is not local disk. */
    private readonly scratchDir: string,
  ) {}

  /**
   * Prepares an export (its checks fail here, before anything is sent) and answers what the route
   * needs to send it: the download's name and type, and `sendTo`, which streams the export to the
   * response and keeps it, resolving with its history entry once the record is written (the
   * response stays open until then, so a client that lists its exports right after its download has
   * ended finds this one). The engine's freed memory is purged while it runs (Storage.purgingMemory).
   */
  async start(ownerId: string, request: ParsedExportRequest): Promise<ExportDownload<ExportHistoryEntry>> {
    const prepared = await this.exports.prepare(ownerId, request);
    return {
      filename: prepared.filename,
      contentType: prepared.contentType,
      sendTo: (res) => this.storage.purgingMemory(() => this.#run(ownerId, request, prepared, res)),
    };
  }

  async #run(
    ownerId: string,
    request: ParsedExportRequest,
    prepared: PreparedExport,
    res: ServerResponse,
  ): Promise<ExportHistoryEntry> {
    const id = randomUUID();
    const storedName = `${id}.${prepared.format.toLowerCase()}`;
    const key = exportKey(storedName);
    const inPlace = this.objects.localPath(key);
    const file = inPlace ?? path.join(this.scratchDir, 'exports', storedName);
    await mkdir(path.dirname(file), { recursive: true });
    const timed = exportSeconds.startTimer({ format: prepared.format });
    let rowCount: number;
    if (prepared.writeFile) {
      try {
        rowCount = await sendWhileWritten(res, file, prepared.writeFile(file));
      } catch (e) {
        await rm(file, { force: true });
        throw e;
      }
    } else {
      const kept = createWriteStream(file);
      try {
        rowCount = await prepared.write(broadcastStream([res, kept], { leaveOpen: [res] }));
      } catch (e) {
        kept.destroy();
        await rm(file, { force: true });
        throw e;
      }
    }
    timed();
    // `columns` in the history is a count (spec section 3); the chosen names stay as columnNames.
    const { columns: columnNames, ...criteria } = request;
    const doc: StoredDocument<ExportDocument> = {
      id,
      ownerId,
      createdAt: new Date().toISOString(),
      body: {
        exportFilename: prepared.filename,
        exportFormat: prepared.format,
        rowCount,
        columnCount: prepared.columnCount,
        criteria: { ...criteria, ...(columnNames ? { columnNames } : {}) },
        storedName,
        sizeBytes: (await stat(file)).size,
      },
    };
    try {
      if (!inPlace) {
        await this.objects.putFile(key, file);
        await rm(file, { force: true });
      }
      await this.storage.exports.save(doc);
    } catch (e) {
      await rm(file, { force: true });
      await this.objects.remove([key]).catch(() => undefined);
      throw e; // the response is destroyed: the client sees a failed download
    }
    return toEntry(doc);
  }

  /** What pre-processing would do to this export (see ExportService.preview). */
  preview(ownerId: string, request: ParsedExportRequest): Promise<PreprocessingPreview> {
    return this.exports.preview(ownerId, request);
  }

  /** The owner's exports, newest first. */
  async list(ownerId: string): Promise<ExportHistoryEntry[]> {
    return (await this.storage.exports.list(ownerId)).map(toEntry);
  }

  /**
   * A kept export, to send as a download: its name, its size in bytes and `sendTo`, which writes
   * its bytes to the response (not ending it). 404 for an unknown id, another account's export or
   * one whose file is gone.
   */
  async download(ownerId: string, id: string): Promise<ExportDownload<void> & { size: number }> {
    const doc = await this.#get(ownerId, id);
    const key = exportKey(doc.body.storedName);
    const gone = () => new NotFoundError('The export file is no longer available', 'EXPORT_NOT_FOUND');
    const size = await this.objects.size(key);
    if (size === null) throw gone();
    const file = this.objects.localPath(key);
    const body = file ? null : await this.objects.read(key);
    if (!file && !body) throw gone();
    return {
      filename: doc.body.exportFilename,
      contentType: doc.body.exportFormat === 'XLSX' ? XLSX_CONTENT_TYPE : CSV_CONTENT_TYPE,
      size,
      sendTo: async (res) => {
        if (file) await sendFileRange(res, file, 0, size - 1);
        else await pipeline(body!, res, { end: false });
      },
    };
  }

  /** Removes an export's record and its file; 404 for an unknown id or another account's export. */
  async delete(ownerId: string, id: string): Promise<void> {
    const doc = await this.#get(ownerId, id);
    await this.storage.exports.remove([doc]);
    await this.objects.remove([exportKey(doc.body.storedName)]);
  }

  async #get(ownerId: string, id: string): Promise<StoredDocument<ExportDocument>> {
    const doc = await this.storage.exports.get(id, ownerId);
    if (!doc) throw new NotFoundError('Export not found', 'EXPORT_NOT_FOUND');
    return doc;
  }
}

function toEntry(doc: StoredDocument<ExportDocument>): ExportHistoryEntry {
  return {
    id: doc.id,
    exportFilename: doc.body.exportFilename,
    exportFormat: doc.body.exportFormat,
    rowCount: doc.body.rowCount,
    createdAt: doc.createdAt,
    sizeBytes: doc.body.sizeBytes,
    exportCriteria: { ...doc.body.criteria, columns: doc.body.columnCount },
  };
}
