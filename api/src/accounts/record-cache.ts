import type { AccountRow, FileRow, Storage } from '@sift/clickhouse';
import type { RecordVersions } from '@sift/shared/redis';

/** How many owners' records a cache holds, and how long it trusts them without a version check. */
export interface RecordCacheLimits {
  /** Owners held at most; the least recently used one goes first. */
  maxOwners: number;
  /**
   * Longest time, in ms, an entry is reused even when its version still matches: the backstop
   * for a version bump that failed (Redis down at the moment of a write).
   */
  ttlMs: number;
  /** Search results (see OwnerRecords.result) held per owner at most; the least recently used go first. */
  resultsPerOwner: number;
}

export const RECORD_CACHE_LIMITS: RecordCacheLimits = { maxOwners: 1000, ttlMs: 60_000, resultsPerOwner: 64 };

/** One owner's records at one version (see RecordCache.owner). */
export interface OwnerRecords {
  /** Every record of the owner's files (any type and status, not deleted), newest upload first. */
  files(): Promise<readonly FileRow[]>;
  /**
   * What `load` answers for `key`, reused while the owner's records stay at this version: for
   * results that depend on nothing but the records and the rows of the files they name, such as
   * a search's count of matching rows (a PROCESSED file's rows never change; every change of
   * which rows a file has, an ingest, a reindex, a delete, a data clear, a restore, writes records
   * or announces them changed). A search's page asked again, a page turned, or many people
   * searching the same name count once. Holds RecordCacheLimits.resultsPerOwner results, the
   * least recently used going first; without Redis versions (or when Redis does not answer)
   * nothing is held and every call loads. A load that fails is not kept.
   *
   * @param key - what the result is of: equal keys must ask the same of the same files
   * @param load - computes the result
   * @param keep - whether a result is small enough to hold (default: every one is)
   */
  result<T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
}

interface Entry {
  version: string;
  loadedAt: number;
  account?: Promise<AccountRow | null>;
  files?: Promise<readonly FileRow[]>;
  /** Results by key, in the order of use (see OwnerRecords.result). */
  results?: Map<string, Promise<unknown>>;
}

/**
 * Each owner's account and file records, read once and reused by every request until any process
 * writes that owner's records (their version in Redis changes: RecordVersions) or a restore
 * replaces every table. A search then costs one Redis round trip instead of two ClickHouse
 * queries with FINAL. The version is read before the records, so a write that lands while they
 * load leaves the entry already out of date. Without `versions`, or when Redis does not answer,
 * every call reads ClickHouse. Records handed out are frozen: callers copy, never change them.
 */
export class RecordCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly storage: Storage,
    private readonly versions: RecordVersions | undefined,
    private readonly limits: RecordCacheLimits = RECORD_CACHE_LIMITS,
  ) {}

  /** The account with this id (the owner id of its records), or null; as AccountsRepository.get. */
  async account(id: string): Promise<AccountRow | null> {
    const entry = await this.#entry(id);
    if (!entry) return this.storage.accounts.get(id);
    return (entry.account ??= forgetOnFailure(
      this.storage.accounts.get(id).then((a) => a && Object.freeze(a)),
      (p) => entry.account === p && delete entry.account,
    ));
  }

  /** Every record of the owner's files (any type and status, not deleted), newest upload first. */
  async files(ownerId: string): Promise<readonly FileRow[]> {
    return (await this.owner(ownerId)).files();
  }

  /**
   * The owner's records at their current version, read from Redis once: what one request reads
   * of them (its file records, its reused results) then costs no other round trip.
   */
  async owner(ownerId: string): Promise<OwnerRecords> {
    const entry = await this.#entry(ownerId);
    const { storage, limits } = this;
    if (!entry) return { files: () => storage.files.list({ ownerId }), result: (_key, load) => load() };
    const forget = (results: Map<string, Promise<unknown>>, key: string, p: Promise<unknown>) =>
      results.get(key) === p && results.delete(key);
    return {
      files: () =>
        (entry.files ??= forgetOnFailure(
          storage.files.list({ ownerId }).then((files) => Object.freeze(files.map(freezeFile))),
          (p) => entry.files === p && delete entry.files,
        )),
      result: <T>(key: string, load: () => Promise<T>, keep?: (value: T) => boolean): Promise<T> => {
        const results = (entry.results ??= new Map());
        let found = results.get(key) as Promise<T> | undefined;
        results.delete(key); // re-inserted below: the map's order is the order of use
        if (!found) {
          const loading = load();
          found = forgetOnFailure(loading, (p) => forget(results, key, p));
          if (keep)
            void loading.then(
              (value) => keep(value) || forget(results, key, loading),
              () => undefined,
            );
        }
        results.set(key, found);
        if (results.size > limits.resultsPerOwner) results.delete(results.keys().next().value!);
        return found;
      },
    };
  }

  /** The owner's entry at the current version (a new, empty one when that changed), or null without one. */
  async #entry(owner: string): Promise<Entry | null> {
    if (!this.versions) return null;
    let version: string;
    try {
      version = await this.versions.read(owner);
    } catch {
      return null;
    }
    const now = Date.now();
    let entry = this.#entries.get(owner);
    this.#entries.delete(owner); // re-inserted below: the map's order is the order of use
    if (!entry || entry.version !== version || now - entry.loadedAt > this.limits.ttlMs) {
      entry = { version, loadedAt: now };
    }
    this.#entries.set(owner, entry);
    if (this.#entries.size > this.limits.maxOwners) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return entry;
  }
}

/** `loading`, with `forget(loading)` called if it fails (so the next call loads again). */
function forgetOnFailure<T>(loading: Promise<T>, forget: (p: Promise<T>) => unknown): Promise<T> {
  loading.catch(() => forget(loading));
  return loading;
}

function freezeFile(file: FileRow): FileRow {
  Object.freeze(file.columnMap);
  Object.freeze(file.columnNames);
  Object.freeze(file.sheetNames);
  return Object.freeze(file);
}
