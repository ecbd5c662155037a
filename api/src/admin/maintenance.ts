import { randomUUID } from 'node:crypto';
import type { Storage } from '@sift/clickhouse';
import { exportKey, originalKey, type ObjectStore } from '@sift/object-store';
import type { DeletionResult } from '@sift/shared/contracts';
import type { UploadIntake } from '../files/upload-intake.ts';

/** What one maintenance call does (each admin endpoint is a combination). */
export interface MaintenanceParts {
  /** File records, their rows and stored originals. */
  files?: boolean;
  /** Searchable rows only (records and originals stay). */
  rows?: boolean;
  /** Export history records and kept export files. */
  exports?: boolean;
  /** Upload sessions in Redis. */
  tracking?: boolean;
  /** Re-ingest every GENERAL file from its stored original (see UploadIntake.reingest). */
  reindex?: boolean;
}

/**
 * Installation-wide data maintenance for administrators (spec section 7, Admin). Every call reports
 * the deletion-result fields; a failing part does not stop the others, it is reported in
 * `clickHouseError` or `uploadTrackingError`.
 */
export class Maintenance {
  constructor(
    private readonly deps: {
      storage: Storage;
      intake: UploadIntake;
      objects: ObjectStore;
      log: (message: string, detail?: unknown) => void;
    },
  ) {}

  async run(parts: MaintenanceParts): Promise<DeletionResult> {
    const started = Date.now();
    const { storage, intake } = this.deps;
    const result: DeletionResult = {
      filesDeleted: 0,
      fileDataRecordsDeleted: 0,
      exportHistoryRecordsDeleted: 0,
      fileRecordsDeleted: 0,
      totalRecordsDeleted: 0,
      clickHouseCollectionsCleared: 0,
      uploadTrackingDataCleared: 0,
      clickHouseReindexed: 0,
      durationMs: 0,
      timestamp: '',
      clickHouseError: null,
      uploadTrackingError: null,
    };
    try {
      // A reindex alone empties nothing: each file keeps its rows until its own job reads it again.
      if (parts.files || parts.rows) {
        try {
          result.fileDataRecordsDeleted = await storage.rows.truncate();
          await storage.people.clear();
        } finally {
          // The file records stay (unless `files` goes too) but their rows are gone: what was
          // counted from them (OwnerRecords.result) must be counted again.
          await storage.recordsChanged('all');
        }
        result.clickHouseCollectionsCleared = 1;
      }
      if (parts.files) {
        const all = await storage.files.listAll();
        await storage.files.remove(all);
        await storage.importReports.removeIds(all.map((f) => f.id));
        result.fileRecordsDeleted = all.length;
        const originals = all.filter((f) => f.filename).map((f) => originalKey(f.filename));
        for (const key of originals) if ((await this.deps.objects.size(key)) !== null) result.filesDeleted++;
        await this.deps.objects.remove(originals);
      }
      if (parts.exports) {
        const all = await storage.exports.listAll();
        await storage.exports.remove(all);
        await this.deps.objects.remove(all.map((e) => exportKey(e.body.storedName)));
        result.exportHistoryRecordsDeleted = all.length;
      }
      if (parts.reindex) result.clickHouseReindexed = await this.#reindex();
    } catch (e) {
      this.deps.log('Maintenance failed (ClickHouse)', e);
      result.clickHouseError = e instanceof Error ? e.message : String(e);
    }
    if (parts.tracking) {
      try {
        result.uploadTrackingDataCleared = await intake.clearTracking();
      } catch (e) {
        this.deps.log('Maintenance failed (upload tracking)', e);
        result.uploadTrackingError = e instanceof Error ? e.message : String(e);
      }
    }
    result.totalRecordsDeleted =
      result.fileDataRecordsDeleted + result.exportHistoryRecordsDeleted + result.fileRecordsDeleted;
    result.durationMs = Date.now() - started;
    result.timestamp = new Date().toISOString();
    return result;
  }

  /**
   * Queues every GENERAL file that has a stored original for ingest again, in one upload session
   * per account named "Reindex" (progress shows in upload tracking). Each file stays searchable
   * with its rows until its own job reads it again. Returns how many were queued.
   */
  async #reindex(): Promise<number> {
    const { storage, intake } = this.deps;
    const files = (await storage.files.listAll()).filter(
      (f) => f.fileType === 'GENERAL' && f.filename && f.status === 'PROCESSED',
    );
    const byOwner = new Map<string, typeof files>();
    for (const f of files) byOwner.set(f.ownerId, [...(byOwner.get(f.ownerId) ?? []), f]);
    const run = randomUUID();
    for (const [ownerId, owned] of byOwner) await intake.reingest(ownerId, owned, run);
    return files.length;
  }
}
