import { randomBytes } from 'node:crypto';
import {
  copyFile,
  link,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { directoryBytes } from './disk.ts';
import { dumpDatabase, loadDatabase, migrate, type Storage, type TableDump } from '@sift/clickhouse';
import type { RestoreResult, Snapshot } from '@sift/shared/contracts';
import { ConflictError, NotFoundError } from '../errors.ts';

/** What a snapshot directory's `manifest.json` holds: the listing, and the tables it dumped. */
interface Manifest extends Snapshot {
  tables: TableDump[];
}

/** Snapshot ids: sortable by time, safe as a directory name (`2026-11-23T14-50-00-123Z-1a2b3c`). */
const ID = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{6}$/;

/**
 * Snapshots and restore (spec section 7, Admin: restore). A snapshot is a directory under
 * `DATA_DIR/snapshots/{id}`: `manifest.json`, `tables/` (every ClickHouse table of the installation:
 * its CREATE statement and its rows in Native format, written by the engine), `blobs/` (the stored
 * originals) and `exports/` (the kept export files), the last two as hard links (copies across
 * disks). Restoring puts all of it back, so the installation holds exactly what it held then; the
 * audit log is the exception: it keeps every entry. One snapshot or restore runs at a time; another
 * answers 409. Embedded engine only (with a ClickHouse server, use its own BACKUP).
 */
export class Snapshots {
  #busy: 'snapshot' | 'restore' | null = null;

  constructor(
    private readonly deps: {
      storage: Storage;
      blobDir: string;
      exportDir: string;
      /** `DATA_DIR/snapshots`. */
      snapshotDir: string;
    },
  ) {}

  /** Every snapshot, newest first. */
  async list(): Promise<Snapshot[]> {
    const ids = await readdir(this.deps.snapshotDir).catch(() => [] as string[]);
    const manifests = await Promise.all(ids.filter((id) => ID.test(id)).map((id) => this.#manifest(id)));
    return manifests
      .filter((m): m is Manifest => m !== null)
      .map(({ tables: _tables, ...snapshot }) => snapshot)
      .sort((a, b) => b.id.localeCompare(a.id));
  }

  /** Takes a snapshot of the whole installation now; `createdBy` is the administrator's email. */
  async create(createdBy: string): Promise<Snapshot> {
    return this.#exclusive('snapshot', async () => {
      const { storage } = this.deps;
      this.#assertEmbedded();
      const createdAt = new Date().toISOString();
      const id = `${createdAt.replaceAll(':', '-').replace('.', '-')}-${randomBytes(3).toString('hex')}`;
      const partial = path.join(this.deps.snapshotDir, `.${id}.partial`);
      await rm(partial, { recursive: true, force: true });
      for (const sub of ['tables', 'blobs', 'exports'])
        await mkdir(path.join(partial, sub), { recursive: true });
      try {
        const counts = await this.#counts();
        const tables = await dumpDatabase(storage.client, storage.database, path.join(partial, 'tables'));
        const originals = await linkAll(this.deps.blobDir, path.join(partial, 'blobs'));
        await linkAll(this.deps.exportDir, path.join(partial, 'exports'));
        const manifest: Manifest = {
          id,
          createdAt,
          createdBy,
          ...counts,
          originals,
          sizeBytes: await directoryBytes(partial),
          tables,
        };
        await writeFile(path.join(partial, 'manifest.json'), JSON.stringify(manifest, null, 2));
        // Listed only once complete.
        await rename(partial, path.join(this.deps.snapshotDir, id));
        const { tables: _tables, ...snapshot } = manifest;
        return snapshot;
      } catch (e) {
        await rm(partial, { recursive: true, force: true });
        throw e;
      }
    });
  }

  /**
   * Brings the installation back to snapshot `id`: tables swapped in once all are loaded, the
   * originals and export files put back (those added since removed). 404 for an unknown snapshot.
   */
  async restore(id: string): Promise<RestoreResult> {
    const manifest = ID.test(id) ? await this.#manifest(id) : null;
    if (!manifest) throw new NotFoundError('No snapshot with this id.', 'SNAPSHOT_NOT_FOUND');
    return this.#exclusive('restore', async () => {
      const started = Date.now();
      const { storage } = this.deps;
      this.#assertEmbedded();
      const dir = path.join(this.deps.snapshotDir, id);
      await loadDatabase(storage.client, storage.database, path.join(dir, 'tables'), manifest.tables, [
        { table: 'documents', where: `kind = 'audit'` },
      ]);
      // A snapshot taken before a schema change comes back with the schema it had.
      await migrate(storage.client, storage.layout);
      storage.rows.forgetColumns();
      const originals = await mirror(path.join(dir, 'blobs'), this.deps.blobDir);
      await mirror(path.join(dir, 'exports'), this.deps.exportDir);
      const counts = await this.#counts();
      return {
        snapshotId: id,
        accountsRestored: counts.accounts,
        filesRestored: counts.files,
        rowsRestored: counts.rows,
        exportsRestored: counts.exports,
        originalsRestored: originals,
        durationMs: Date.now() - started,
        timestamp: new Date().toISOString(),
      };
    });
  }

  /** Deletes snapshot `id` (404 when there is none); not while a snapshot or restore runs. */
  async remove(id: string): Promise<void> {
    if (!ID.test(id) || !(await this.#manifest(id)))
      throw new NotFoundError('No snapshot with this id.', 'SNAPSHOT_NOT_FOUND');
    await this.#exclusive('snapshot', () =>
      rm(path.join(this.deps.snapshotDir, id), { recursive: true, force: true }),
    );
  }

  /** What the installation holds now (the counts a snapshot and a restore report). */
  async #counts(): Promise<Pick<Snapshot, 'accounts' | 'files' | 'rows' | 'exports'>> {
    const { storage } = this.deps;
    const [accounts, files, totals, exports] = await Promise.all([
      storage.accounts.list(),
      storage.files.countAll(),
      storage.rows.totals(),
      storage.exports.count(),
    ]);
    return { accounts: accounts.length, files, rows: totals.rows, exports };
  }

  async #exclusive<T>(what: 'snapshot' | 'restore', fn: () => Promise<T>): Promise<T> {
    if (this.#busy) {
      throw new ConflictError(
        this.#busy === 'restore'
          ? 'A restore is already running; try again when it has finished.'
          : 'A snapshot is being taken; try again when it has finished.',
        this.#busy === 'restore' ? 'RESTORE_RUNNING' : 'SNAPSHOT_RUNNING',
      );
    }
    this.#busy = what;
    try {
      return await fn();
    } finally {
      this.#busy = null;
    }
  }

  #assertEmbedded(): void {
    if (!this.deps.storage.embedded) {
      throw new ConflictError(
        'Snapshots need the embedded engine; with a ClickHouse server, use its BACKUP and RESTORE.',
        'SNAPSHOTS_UNAVAILABLE',
      );
    }
  }

  async #manifest(id: string): Promise<Manifest | null> {
    try {
      return JSON.parse(
        await readFile(path.join(this.deps.snapshotDir, id, 'manifest.json'), 'utf8'),
      ) as Manifest;
    } catch {
      return null;
    }
  }
}

/** Hard-links (or copies, across disks) every file of `from` into `to`; returns how many. */
async function linkAll(from: string, to: string): Promise<number> {
  const names = await readdir(from).catch(() => [] as string[]);
  let n = 0;
  for (const name of names) {
    const source = path.join(from, name);
    if (!(await stat(source)).isFile()) continue;
    await link(source, path.join(to, name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EXDEV' || e.code === 'EPERM') return copyFile(source, path.join(to, name));
      throw e;
    });
    n++;
  }
  return n;
}

/**
 * Makes `to` hold exactly the files of `from`: files not in `from` are removed, the others linked
 * (or copied) in. Returns how many files `from` has.
 */
async function mirror(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true });
  const wanted = new Set(await readdir(from).catch(() => [] as string[]));
  for (const name of await readdir(to)) {
    if (!wanted.has(name)) await rm(path.join(to, name), { recursive: true, force: true });
  }
  for (const name of wanted) await unlink(path.join(to, name)).catch(() => undefined);
  return linkAll(from, to);
}
