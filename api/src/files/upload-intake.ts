import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { newUploadRecord, type FileRow } from '@sift/clickhouse';
import type {
  AdminQueueJob,
  FileRecord,
  ReadChoices,
  UploadSession,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import type { IngestQueue, IngestQueueCounts } from '@sift/shared/jobs';
import type { UploadTracker } from '@sift/shared/upload-tracking';
import { InvalidFileError, inspectUpload, type SpreadsheetFormat } from '@sift/spreadsheet';
import { originalKey, type ObjectStore } from '@sift/object-store';
import { HttpError, NotFoundError } from '../errors.ts';
import { toFileRecord, type FilesService } from './files.service.ts';
import { ArrivalStorage } from './arrival-storage.ts';
import { QueueUnavailableError } from './upload-queue-error.ts';

/** A stored upload as multer leaves it on disk, or a file of a type Sift does not take (not stored). */
export interface StoredUpload {
  originalFilename: string;
  /** The generated name in `incomingDir`; '' for a refused file. */
  storedName: string;
  sizeBytes: number;
  /** Why the file was not stored (its type); it is recorded FAILED with this message. */
  refusedBecause?: string | null | undefined;
}

/** What an accepted request answers: its upload session and a record per file. */
export interface AcceptedUploads {
  sessionId: string;
  files: FileRecord[];
}

/**
 * Upload intake: the one owner, on the api side, of what happens between a file arriving and its
 * ingest being queued. It checks each file (format from its content, zip and XML safety), the
 * account's quota, keeps the original, has FilesService record the file, adds it to its upload
 * session and queues its ingest. It is also the api's only caller of upload tracking: the sessions
 * routes, the reindex and account deletion go through it.
 */
export class UploadIntake {
  constructor(
    private readonly files: FilesService,
    private readonly tracker: UploadTracker,
    private readonly queue: IngestQueue,
    /** Where uploads arrive (multer's destination): the originals' own directory on local disk. */
    private readonly incomingDir: string,
    /** Where originals are kept (local disk or a shared bucket). */
    private readonly objects: ObjectStore,
    /** Bytes of originals one account may keep; undefined → no quota. */
    private readonly quotaBytes?: number,
  ) {
    this.arrivals = new ArrivalStorage(incomingDir, objects);
  }

  /** Where the upload routes' files are stored while they arrive (multer's storage engine). */
  readonly arrivals: ArrivalStorage;

  /**
   * Validates each stored upload and records it in an upload session (`sessionId`, else a new
   * finalized one): a valid file as a PROCESSING GENERAL file with its ingest queued; an invalid
   * one, with `strict`, refuses the whole request, otherwise it is recorded as FAILED with the reason
   * so the others go on alone. Refused or failed originals are not kept.
   *
   * @param ownerId - the uploading account
   * @param uploads - the request's files, stored in `incomingDir`
   * @param options - `strict`: one refused file refuses the request; `sessionId`: the session to add to;
   *   `requestId`: the request's id, carried into each ingest job (its logs share it)
   * @returns the session and a record per upload, in order
   * @throws HttpError 415 (type or content mismatch) or 422 (unsafe or corrupt) with `strict`;
   *   507 QUOTA_EXCEEDED past the account's quota (nothing kept); QueueUnavailableError (503) when
   *   Redis does not answer (nothing kept, or the files not queued marked FAILED)
   */
  async accept(
    ownerId: string,
    uploads: StoredUpload[],
    options: { strict?: boolean; sessionId?: string | undefined; requestId?: string | undefined } = {},
  ): Promise<AcceptedUploads> {
    await this.#checkQuota(ownerId, uploads);
    const checks = await Promise.all(
      uploads.map((u) =>
        u.refusedBecause ? new InvalidFileError(u.refusedBecause, 'unsupported') : this.#validate(u),
      ),
    );
    const problems = checks.map((c) => (c instanceof InvalidFileError ? c : null));
    const refused = problems.find((p) => p !== null);
    if (options.strict && refused) {
      await this.discard(uploads);
      throw new HttpError(refused.kind === 'unsupported' ? 415 : 422, 'INVALID_FILE', refused.message);
    }
    const rows: FileRow[] = uploads.map((upload, i) =>
      newUploadRecord({
        id: randomUUID(),
        ownerId,
        originalFilename: upload.originalFilename,
        filename: upload.storedName,
        sizeBytes: upload.sizeBytes,
        errorMessage: problems[i]?.message,
      }),
    );
    let sessionId: string;
    try {
      sessionId =
        options.sessionId ?? (await this.tracker.createSession(ownerId, sessionName(uploads), true)).id;
      await this.tracker.addFiles(
        sessionId,
        rows.map((r) => ({
          fileId: r.id,
          fileName: r.originalFilename,
          status: r.status === 'FAILED' ? 'FAILED' : 'PENDING',
          errorMessage: r.errorMessage || null,
        })),
      );
    } catch (e) {
      await this.discard(uploads);
      if (e instanceof HttpError) throw e;
      throw new QueueUnavailableError();
    }
    let turn = await this.files.unfinished(ownerId);
    for (const [i, row] of rows.entries()) {
      await this.files.record(row);
      if (row.status === 'FAILED') {
        await this.#discard(uploads[i]!);
        continue;
      }
      try {
        await this.#keep(uploads[i]!);
      } catch (e) {
        await this.#strand(
          rows.slice(i),
          uploads.slice(i),
          'The file could not be stored. Please upload it again.',
        );
        throw e;
      }
      try {
        await this.queue.add(
          {
            fileId: row.id,
            ownerId,
            storedName: row.filename,
            originalFilename: row.originalFilename,
            sessionId,
            ...(typeof checks[i] === 'string' && { format: checks[i] }),
            ...(options.requestId && { requestId: options.requestId }),
          },
          { turn: ++turn },
        );
      } catch {
        await this.#strand(
          rows.slice(i),
          uploads.slice(i),
          'The file could not be queued for processing. Please upload it again.',
        );
        throw new QueueUnavailableError();
      }
    }
    return { sessionId, files: rows.map(toFileRecord) };
  }

  /**
   * Starts an upload session that collects batches until it is finalized.
   *
   * @param ownerId - the uploading account
   * @param name - the session's name ('Upload session' when empty)
   * @param expectedFiles - files still to come, counted in the session's total as waiting
   * @returns the new session
   */
  createSession(ownerId: string, name: string | undefined, expectedFiles?: number): Promise<UploadSession> {
    return this.tracker.createSession(ownerId, name || 'Upload session', false, expectedFiles);
  }

  /**
   * Accepts one batch of an open session's files (a refused file fails alone).
   *
   * @param ownerId - the session's owner
   * @param sessionId - a session of `ownerId` that is not finalized
   * @param uploads - the batch's files
   * @returns as accept
   * @throws NotFoundError for another account's or an unknown session; HttpError 409
   *   SESSION_FINALIZED for a finished one (the batch's files are not kept either way)
   */
  async addBatch(ownerId: string, sessionId: string, uploads: StoredUpload[]): Promise<AcceptedUploads> {
    const summary = await this.tracker.summary(ownerId, sessionId);
    if (!summary || summary.session.finalized) {
      await this.discard(uploads);
      if (!summary) throw new NotFoundError('Upload session not found.', 'SESSION_NOT_FOUND');
      throw new HttpError(
        409,
        'SESSION_FINALIZED',
        'This upload session is finished: start a new one to add files.',
      );
    }
    return this.accept(ownerId, uploads, { sessionId: summary.session.id });
  }

  /**
   * Finalizes a session: files not sent by now no longer count in it.
   *
   * @throws NotFoundError for another account's or an unknown session
   */
  async finalize(ownerId: string, sessionId: string): Promise<UploadSessionSummary> {
    const summary = await this.tracker.finalize(ownerId, sessionId);
    if (!summary) throw new NotFoundError('Upload session not found.', 'SESSION_NOT_FOUND');
    return summary;
  }

  /** One of the owner's sessions with its files, or null (another account's, unknown or expired). */
  session(ownerId: string, sessionId: string): Promise<UploadSessionSummary | null> {
    return this.tracker.summary(ownerId, sessionId);
  }

  /** The owner's sessions with their files, newest first. */
  sessions(ownerId: string): Promise<UploadSessionSummary[]> {
    return this.tracker.list(ownerId);
  }

  /** Removes the owner's sessions older than `daysOld` days; answers how many went. */
  cleanup(ownerId: string, daysOld: number): Promise<number> {
    return this.tracker.cleanup(ownerId, daysOld);
  }

  /** Removes every session of an account (it is being deleted); answers how many went. */
  removeSessions(ownerId: string): Promise<number> {
    return this.tracker.removeAll(ownerId);
  }

  /** Removes every session of every account (administration); answers how many keys went. */
  clearTracking(): Promise<number> {
    return this.tracker.clearAll();
  }

  /**
   * Queues stored GENERAL files of one account for ingest again, in one new upload session named
   * "Reindex". Each file keeps its status and rows (searchable) until its job starts reading it;
   * only then is it PROCESSING, until its new rows are in (a reindex no longer empties every
   * account's search for its whole length).
   *
   * @param ownerId - the files' owner
   * @param files - GENERAL files with a stored original
   * @param run - what makes this reindex's job ids its own (a file is queued once per run)
   */
  async reingest(ownerId: string, files: FileRow[], run: string): Promise<void> {
    const session = await this.tracker.createSession(ownerId, 'Reindex', true);
    await this.tracker.addFiles(
      session.id,
      files.map((f) => ({ fileId: f.id, fileName: f.originalFilename })),
    );
    let turn = await this.files.unfinished(ownerId);
    for (const f of files) {
      await this.queue.add(
        {
          fileId: f.id,
          ownerId,
          storedName: f.filename,
          originalFilename: f.originalFilename,
          sessionId: session.id,
          reindex: true,
        },
        { jobId: `${f.id}:reindex:${run}`, turn: ++turn },
      );
    }
  }

  /**
   * Queues one stored GENERAL file for ingest again with a person's `read` choices (encoding,
   * header rows), in an upload session named after it; the file is PROCESSING until its rows are
   * back, and its AUTHOR file and report are made again.
   *
   * @param ownerId - the file's owner
   * @param file - a GENERAL file with a stored original, not PROCESSING
   * @param read - how to read it this time
   * @returns the file's record, PROCESSING
   */
  async reingestWith(ownerId: string, file: FileRow, read: ReadChoices): Promise<FileRow> {
    const session = await this.tracker.createSession(ownerId, `Re-ingest ${file.originalFilename}`, true);
    await this.tracker.addFiles(session.id, [{ fileId: file.id, fileName: file.originalFilename }]);
    const turn = (await this.files.unfinished(ownerId)) + 1;
    const processing: FileRow = { ...file, status: 'PROCESSING' };
    await this.files.record(processing);
    await this.queue.add(
      {
        fileId: file.id,
        ownerId,
        storedName: file.filename,
        originalFilename: file.originalFilename,
        sessionId: session.id,
        read,
      },
      { jobId: `${file.id}:reingest:${randomUUID()}`, turn },
    );
    return processing;
  }

  /** Ingest jobs by state. */
  queueCounts(): Promise<IngestQueueCounts> {
    return this.queue.counts();
  }

  /** How long the oldest waiting ingest job has waited, ms (see IngestQueue.oldestWaitingMs). */
  queueOldestWaitingMs(): Promise<number | null> {
    return this.queue.oldestWaitingMs();
  }

  /** The ingest jobs themselves, at most `limit` of each state (see IngestQueue.jobs). */
  queueJobs(limit: number): Promise<AdminQueueJob[]> {
    return this.queue.jobs(limit);
  }

  /**
   * Resolves when `incomingBytes` more originals fit in `ownerId`'s quota (always, without one).
   *
   * @throws HttpError 507 QUOTA_EXCEEDED saying what is left; accept() checks again with the stored sizes
   */
  async ensureRoom(ownerId: string, incomingBytes: number): Promise<void> {
    if (this.quotaBytes === undefined) return;
    const used = await this.files.originalBytes(ownerId);
    if (used + incomingBytes <= this.quotaBytes) return;
    const size = (bytes: number) =>
      bytes < 2 ** 20 ? `${Math.ceil(Math.max(0, bytes) / 1024)} KB` : `${(bytes / 2 ** 20).toFixed(1)} MB`;
    throw new HttpError(
      507,
      'QUOTA_EXCEEDED',
      `This upload needs ${size(incomingBytes)}, but your account has ${size(this.quotaBytes - used)} of its ${size(this.quotaBytes)} storage left. Delete files you no longer need, or ask an administrator for more space.`,
    );
  }

  /** Removes stored uploads that will not be recorded (a refused request). */
  async discard(uploads: StoredUpload[]): Promise<void> {
    await Promise.all(uploads.map((u) => this.#discard(u)));
  }

  /**
   * Files that can never finish (not stored or not queued) fail now, and their originals go, from
   * where they arrived and from a bucket they may have reached (best effort: the request is failing).
   */
  async #strand(rows: FileRow[], uploads: StoredUpload[], message: string): Promise<void> {
    const stranded = rows.filter((r) => r.status !== 'FAILED');
    await this.files.record(
      ...stranded.map((r) => ({ ...r, status: 'FAILED' as const, errorMessage: message })),
    );
    await this.discard(uploads);
    if (this.objects.kind !== 'local')
      await this.objects.remove(uploads.map((u) => originalKey(u.storedName))).catch(() => undefined);
  }

  /** Moves an accepted upload into the object store (nothing to do where it arrived in place). */
  async #keep(upload: StoredUpload): Promise<void> {
    const incoming = path.join(this.incomingDir, upload.storedName);
    const key = originalKey(upload.storedName);
    if (this.objects.localPath(key) === incoming) return;
    // Copied while it arrived (the upload routes), else copied now (a file brought in otherwise).
    await (this.arrivals.take(upload.storedName) ?? this.objects.putFile(key, incoming));
    await unlink(incoming).catch(() => undefined);
  }

  /** Refuses `uploads` (507, their originals removed) when they would take `ownerId` past the quota. */
  async #checkQuota(ownerId: string, uploads: StoredUpload[]): Promise<void> {
    try {
      await this.ensureRoom(
        ownerId,
        uploads.reduce((n, u) => n + u.sizeBytes, 0),
      );
    } catch (e) {
      await this.discard(uploads);
      throw e;
    }
  }

  /**
   * The upload's format once validated (the ingest then skips validating it again), why it cannot
   * be ingested, or null for an empty file (it goes on and fails at ingest with its own message).
   */
  async #validate(upload: StoredUpload): Promise<SpreadsheetFormat | InvalidFileError | null> {
    try {
      // In the inspection pool (a worker thread with the reading limits), not on the API's thread.
      // Only the format: the ingest guesses the encoding when it reads the file.
      const inspected = await inspectUpload(
        path.join(this.incomingDir, upload.storedName),
        upload.originalFilename,
        { formatOnly: true },
      );
      return inspected.format;
    } catch (e) {
      if (e instanceof InvalidFileError) return e.kind === 'empty' ? null : e;
      throw e;
    }
  }

  async #discard(upload: StoredUpload): Promise<void> {
    if (!upload.storedName) return; // refused: nothing was stored
    await Promise.all([
      unlink(path.join(this.incomingDir, upload.storedName)).catch(() => undefined),
      this.arrivals.forget(upload.storedName),
    ]);
  }
}

/** A session's name from its files: the file name, or the first name and how many more. */
function sessionName(uploads: StoredUpload[]): string {
  const [first] = uploads;
  if (!first) return 'Upload';
  return uploads.length === 1
    ? first.originalFilename
    : `${first.originalFilename} and ${uploads.length - 1} more`;
}
