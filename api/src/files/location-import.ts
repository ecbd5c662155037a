import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  hasAcceptedExtension,
  MAX_FILES_PER_IMPORT,
  type ImportFromLocationResponse,
  type ImportLocationFile,
  type ImportLocationListing,
} from '@sift/shared/contracts';
import { BadRequestError, HttpError, NotFoundError, NotImplementedError } from '../errors.ts';
import type { StoredUpload, UploadIntake } from './upload-intake.ts';
import { fileTooLargeMessage } from './limits.ts';
import {
  describeLocation,
  ImportLocationError,
  openRemoteDirectory,
  RemoteFileTooLargeError,
  type ImportLocationConfig,
  type RemoteDirectory,
} from './remote-directory.ts';

const NOT_CONFIGURED =
  'Importing from an FTP or SFTP location is not set up on this installation: no location is configured. Upload the files from the Upload screen instead.';

/**
 * Imports from the configured FTP/SFTP location (`/api/file/process-ftp`, spec section 7): lists
 * its Excel and CSV files, and downloads chosen ones into `incomingDir` to be accepted as uploads
 * are (validated, tracked in a new upload session, ingested), each failing alone.
 */
export class LocationImport {
  constructor(
    private readonly config: ImportLocationConfig | undefined,
    private readonly intake: UploadIntake,
    private readonly incomingDir: string,
    private readonly maxUploadBytes: number,
    private readonly open: (config: ImportLocationConfig) => Promise<RemoteDirectory> = openRemoteDirectory,
  ) {}

  /** The location and its Excel and CSV files, by name. 501 unconfigured, 502 unreachable. */
  async list(): Promise<ImportLocationListing> {
    const config = this.#configured();
    return this.#with(config, async (dir) => ({
      location: describeLocation(config.url),
      files: await importable(dir),
    }));
  }

  /**
   * Imports `names` (default: every Excel and CSV file there) for `ownerId`. 400 for a name the
   * location does not offer, 404 when it offers no Excel or CSV file, 413 past
   * MAX_FILES_PER_IMPORT, 507 past the account's quota (nothing downloaded); files over the upload
   * size limit are skipped with the reason.
   */
  async import(ownerId: string, names?: readonly string[]): Promise<ImportFromLocationResponse> {
    const config = this.#configured();
    const location = describeLocation(config.url);
    return this.#with(config, async (dir) => {
      const offered = await importable(dir);
      const chosen = names ? choose(offered, names) : offered;
      if (!chosen.length)
        throw new NotFoundError(
          `There are no Excel or CSV files at the import location ${location}.`,
          'NO_FILES',
        );
      if (chosen.length > MAX_FILES_PER_IMPORT)
        throw new HttpError(
          413,
          'TOO_MANY_FILES',
          `The import location ${location} has ${chosen.length} Excel and CSV files; import at most ${MAX_FILES_PER_IMPORT} at a time by choosing them.`,
        );
      // The quota is checked on the listed sizes first, so a refused import downloads nothing.
      const fitting = chosen.filter((f) => f.sizeBytes <= this.maxUploadBytes);
      await this.intake.ensureRoom(
        ownerId,
        fitting.reduce((n, f) => n + f.sizeBytes, 0),
      );
      const tooLarge = fileTooLargeMessage(this.maxUploadBytes);
      const skipped: ImportFromLocationResponse['skipped'] = [];
      const uploads: StoredUpload[] = [];
      mkdirSync(this.incomingDir, { recursive: true });
      try {
        for (const file of chosen) {
          if (file.sizeBytes > this.maxUploadBytes) {
            skipped.push({ name: file.name, reason: tooLarge });
            continue;
          }
          const storedName = `${randomUUID()}${path.extname(file.name).toLowerCase()}`;
          const to = path.join(this.incomingDir, storedName);
          try {
            const sizeBytes = await dir.download(file.name, to, this.maxUploadBytes);
            uploads.push({ originalFilename: file.name, storedName, sizeBytes });
          } catch (e) {
            await rm(to, { force: true });
            // It grew past the limit since it was listed.
            if (!(e instanceof RemoteFileTooLargeError)) throw e;
            skipped.push({ name: file.name, reason: tooLarge });
          }
        }
      } catch (e) {
        await Promise.all(uploads.map((u) => rm(path.join(this.incomingDir, u.storedName), { force: true })));
        throw e;
      }
      if (!uploads.length)
        throw new HttpError(
          413,
          'FILE_TOO_LARGE',
          `Nothing was imported from ${location}: ${skipped.map((s) => s.name).join(', ')}. ${tooLarge}`,
        );
      const accepted = await this.intake.accept(ownerId, uploads);
      return { ...accepted, location, skipped };
    });
  }

  #configured(): ImportLocationConfig {
    if (!this.config) throw new NotImplementedError(NOT_CONFIGURED, 'FTP_NOT_CONFIGURED');
    return this.config;
  }

  /** Runs `work` on an open connection, closed after; a location failure answers 502. */
  async #with<T>(config: ImportLocationConfig, work: (dir: RemoteDirectory) => Promise<T>): Promise<T> {
    let dir: RemoteDirectory | null = null;
    try {
      dir = await this.open(config);
      return await work(dir);
    } catch (e) {
      if (e instanceof ImportLocationError) throw new HttpError(502, 'IMPORT_LOCATION_FAILED', e.message);
      throw e;
    } finally {
      await dir?.close();
    }
  }
}

/** The directory's Excel and CSV files, by name. */
async function importable(dir: RemoteDirectory): Promise<ImportLocationFile[]> {
  return (await dir.list())
    .filter((f) => hasAcceptedExtension(f.name))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The offered files named, in the order named (each once); 400 naming any not offered. */
function choose(offered: ImportLocationFile[], names: readonly string[]): ImportLocationFile[] {
  const byName = new Map(offered.map((f) => [f.name, f]));
  const missing = names.filter((n) => !byName.has(n));
  if (missing.length)
    throw new BadRequestError(
      `Not found at the import location (or not an Excel or CSV file): ${missing.join(', ')}`,
      'IMPORT_FILE_NOT_FOUND',
    );
  return [...new Set(names)].map((n) => byName.get(n)!);
}
