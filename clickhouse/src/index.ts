/**
 * `@sift/clickhouse`: the ClickHouse schema, migrations and every query Sift runs, shared by the
 * api and the ingest worker. Embedded chDB by default, a ClickHouse server when `url` is set.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { AccountsRepository } from './accounts.repository.ts';
import { openClickHouse, type ClickHouseOptions } from './client.ts';
import { TableLayout } from './layout.ts';
import {
  JsonDocumentsRepository,
  type AuditDocument,
  type ExportDocument,
  type SavedQueryDocument,
} from './json-documents.repository.ts';
import { FilesRepository, rowGenerations, type FileRow, type RecordsChanged } from './files.repository.ts';
import { MemoryPurger } from './engine-memory.ts';
import { migrate } from './migrations.ts';
import { claimMetadataHome } from './metadata-home.ts';
import { PeopleRepository, processAccountLock, type AccountLock } from './people.repository.ts';
import { RowsRepository } from './rows/index.ts';
import type { ImportReport } from '@sift/shared/contracts';

export * from './accounts.repository.ts';
export * from './json-documents.repository.ts';
export * from './files.repository.ts';
export * from './people.repository.ts';
export type { PeopleRowsSource } from './people-rows-sql.ts';
export * from './rows/index.ts';
export * from './skip-index.ts';
export * from './dump.ts';
export { MetadataElsewhereError } from './metadata-home.ts';
export * from './backup.ts';
export { openClickHouse, clusterSettings, type ClickHouseOptions } from './client.ts';
export { TableLayout, type ClusterOptions, type DdlPath } from './layout.ts';
export { nodeUnreachable, NodeUnreachableError, NODE_CATCH_UP_INTERVAL_MS } from './node-catch-up.ts';
export { migrate } from './migrations.ts';
export {
  containsParts,
  containsSql,
  containsTerm,
  foldSql,
  ident,
  INDEXED_FRAGMENT_MIN,
  likeContains,
  type ContainsTerm,
} from './sql.ts';
export { inlineQueryParams } from './inline-params.ts';
export { PooledConnection } from './pool.ts';
export { ENGINE_PURGE_INTERVAL_MS, MemoryPurger } from './engine-memory.ts';

/** Everything that talks to ClickHouse, opened once per process. */
export interface Storage {
  client: ClickHouseClient;
  database: string;
  /** True for embedded chDB (it can read this process's files with `file()`). */
  embedded: boolean;
  /** Where the tables live (one node or a cluster) and how schema changes reach every node. */
  layout: TableLayout;
  accounts: AccountsRepository;
  files: FilesRepository;
  rows: RowsRepository;
  /** People: one entry per researcher among each account's AUTHOR rows (people.repository.ts). */
  people: PeopleRepository;
  /** Export history (spec section 3). */
  exports: JsonDocumentsRepository<ExportDocument>;
  /** Saved search queries. */
  queries: JsonDocumentsRepository<SavedQueryDocument>;
  /** What administrators did (owner '' = the system-wide log). */
  audit: JsonDocumentsRepository<AuditDocument>;
  /** Import reports, one per GENERAL file (its id), written when its ingest ends. */
  importReports: JsonDocumentsRepository<ImportReport>;
  /**
   * Runs `work` (an ingest's load, an export: work that has the engine write and free large
   * buffers) while the embedded engine's freed memory is returned to the kernel every 100 ms
   * (MemoryPurger in engine-memory.ts); against a ClickHouse server it only runs `work`. Resolves
   * or rejects as `work` does.
   */
  purgingMemory<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Removes the rows of these files (GENERAL or AUTHOR ids; under either of their row ids, see
   * rowGenerations), the people rows, records and import reports of the AUTHOR files among them
   * (regrouping the people they touched); GENERAL records stay (their status says what happened).
   * Unknown ids are skipped.
   */
  removeFileData(fileIds: string[]): Promise<void>;
  /**
   * Says that records changed without a repository write: `'all'` after a restore replaced the
   * tables. Repositories' own writes say it themselves. Never rejects.
   */
  recordsChanged: RecordsChanged;
  /** Answers true when ClickHouse answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Runs `work` while no other process sharing the ClickHouse server runs its own (a lock held
 * elsewhere, e.g. in Redis); resolves or rejects as `work` does.
 */
export type MigrationLock = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Opens ClickHouse, applies migrations and returns the repositories. Processes that share a
 * ClickHouse server pass `migrationLock`, so the migrations run once however many start together:
 * each takes the lock in turn and finds what the first applied.
 *
 * @param options - the server or embedded engine, the database, and the migration lock and record hooks
 * @returns the repositories over the migrated database (close it with `close()`)
 * @throws the engine's error when it cannot be reached or a migration fails
 */
export async function openStorage(
  options: ClickHouseOptions & {
    migrationLock?: MigrationLock | undefined;
    /**
     * Serialises updates of one account's people across the processes sharing the database (e.g. a
     * Redis lock); default: within this process only (enough for embedded chDB).
     */
    accountLock?: AccountLock | undefined;
    /**
     * Told after account and file records were written, with their owners (e.g. to bump their
     * versions in Redis). A rejection is logged, never passed to the writer: the write has happened.
     */
    onRecordsChanged?: ((owners: readonly string[] | 'all') => Promise<void>) | undefined;
  },
): Promise<Storage> {
  if (options.cluster && !options.url) {
    throw new Error('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL: embedded chDB is one node.');
  }
  const client = openClickHouse(options);
  // Schema changes go to each node by its own URL when given (else once, ON CLUSTER).
  const nodeUrls = options.cluster?.nodeUrls ?? [];
  const nodes = nodeUrls.map((url) => openClickHouse({ ...options, url }));
  const layout = new TableLayout(client, options.database, options.cluster, nodes);
  const lock: MigrationLock = options.migrationLock ?? ((work) => work());
  const rows = new RowsRepository(client, layout, !options.url);
  try {
    await lock(async () => {
      // First: a process pointed at another node than the metadata's must not migrate it.
      await claimMetadataHome(
        client,
        layout,
        nodes.map((node, i) => ({ url: nodeUrls[i]!, client: node })),
      );
      await migrate(client, layout);
      await rows.prepareFolding();
    });
  } catch (e) {
    await Promise.all([client, ...nodes].map((c) => c.close()));
    throw e;
  }
  // Nodes away at start-up (or later) get what they missed once they answer again.
  layout.catchUp?.start();
  const purger = options.url
    ? null
    : new MemoryPurger(
        () => client.command({ query: 'SYSTEM JEMALLOC PURGE' }),
        (error) =>
          console.error('[sift] The embedded engine refused to purge its memory; not trying again', error),
      );
  const announce = options.onRecordsChanged;
  const recordsChanged: RecordsChanged = async (owners) => {
    try {
      await announce?.(owners);
    } catch (e) {
      console.error(
        '[sift] Could not announce changed records; caches may serve the old ones until they expire',
        e,
      );
    }
  };
  const files = new FilesRepository(client, options.database, recordsChanged);
  const importReports = new JsonDocumentsRepository<ImportReport>(client, options.database, 'import-report');
  const people = new PeopleRepository(client, layout, options.accountLock ?? processAccountLock());
  return {
    client,
    database: options.database,
    embedded: !options.url,
    layout,
    accounts: new AccountsRepository(client, options.database, recordsChanged),
    files,
    rows,
    people,
    exports: new JsonDocumentsRepository<ExportDocument>(client, options.database, 'export'),
    queries: new JsonDocumentsRepository<SavedQueryDocument>(client, options.database, 'query'),
    audit: new JsonDocumentsRepository<AuditDocument>(client, options.database, 'audit'),
    importReports,
    purgingMemory: (work) => (purger ? purger.during(work) : work()),
    async removeFileData(fileIds) {
      await rows.deleteFiles(fileIds.flatMap(rowGenerations));
      const records = await Promise.all(fileIds.map((id) => files.get(id)));
      // The people of the AUTHOR files' owners are updated even when their shard could not be
      // reached to look (then this waits for it, as an ingest does).
      await people.removeFiles(
        fileIds,
        records.flatMap((f) => (f?.fileType === 'AUTHOR' ? [f.ownerId] : [])),
      );
      await files.remove(records.filter((f): f is FileRow => f !== null && f.fileType === 'AUTHOR'));
      await importReports.removeIds(fileIds);
    },
    recordsChanged,
    async ping() {
      try {
        const r = await client.ping();
        return r.success;
      } catch {
        return false;
      }
    },
    async close() {
      layout.catchUp?.stop();
      await Promise.all([client, ...nodes].map((c) => c.close()));
    },
  };
}
