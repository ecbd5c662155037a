import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { ExportDocument, Storage, StoredDocument } from '@sift/clickhouse';
import { exportKey, type ObjectStore } from '@sift/object-store';
import type { ExportHistoryEntry, PreprocessingPreview } from '@sift/shared/contracts';
import { NotFoundError } from '../errors.ts';
import type { ExportService, ParsedExportRequest } from './export.service.ts';
import { FileSender, sendFileRange } from './send-file.ts';
import { broadcastStream } from './broadcast-stream.ts';

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
  res: Response,
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
   * Streams the export to `res` and keeps it. Resolves with its history entry. The engine's freed
   * memory is purged while it runs (Storage.purgingMemory).
   */
  run(ownerId: string, request: ParsedExportRequest, res: Response): Promise<ExportHistoryEntry> {
    return this.storage.purgingMemory(() => this.#run(ownerId, request, res));
  }

  async #run(ownerId: string, request: ParsedExportRequest, res: Response): Promise<ExportHistoryEntry> {
    const prepared = await this.exports.prepare(ownerId, request);
    const id = randomUUID();
    const storedName = `${id}.${prepared.format.toLowerCase()}`;
    const key = exportKey(storedName);
    const inPlace = this.objects.localPath(key);
    const file = inPlace ?? path.join(this.scratchDir, 'exports', storedName);
    await mkdir(path.dirname(file), { recursive: true });
    res.attachment(prepared.filename);
    res.type(prepared.contentType);
    let rowCount: number;
    // The response stays open until the history record is written, so a client that lists its
    // exports right after its download has ended finds this one.
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
    res.end();
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

  /** Sends a kept export as a download; 404 for an unknown id or another account's export. */
  async download(ownerId: string, id: string, res: Response): Promise<void> {
    const doc = await this.#get(ownerId, id);
    const key = exportKey(doc.body.storedName);
    const gone = () => new NotFoundError('The export file is no longer available', 'EXPORT_NOT_FOUND');
    const size = await this.objects.size(key);
    if (size === null) throw gone();
    const file = this.objects.localPath(key);
    const body = file ? null : await this.objects.read(key);
    if (!file && !body) throw gone();
    res.attachment(doc.body.exportFilename);
    res.setHeader('content-length', String(size));
    if (file) await sendFileRange(res, file, 0, size - 1);
    else await pipeline(body!, res, { end: false });
    res.end();
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
