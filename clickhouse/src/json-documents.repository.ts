import type { ClickHouseClient } from '@clickhouse/client';
import { ident } from './sql.ts';
import { nextVersion } from './replacing-version.ts';

/** One stored document: who owns it, when it was made (ISO 8601, UTC), and its JSON body. */
export interface StoredDocument<T> {
  id: string;
  ownerId: string;
  createdAt: string;
  body: T;
}

/** An export as recorded in the history (spec section 3, "Export history entry"). */
export interface ExportDocument {
  exportFilename: string;
  exportFormat: 'CSV' | 'XLSX';
  rowCount: number;
  /** Columns exported (data columns, plus File/Sheet/Row when metadata was included). */
  columnCount: number;
  /** The export request's filters and choices, as sent (search criteria, files, sheets, dates, columns). */
  criteria: Record<string, unknown>;
  /** Name of the kept file under `DATA_DIR/exports`. */
  storedName: string;
  sizeBytes: number;
}

/** A saved search: a name and the search request's filters. */
export interface SavedQueryDocument {
  name: string;
  /** 'GENERAL' (the general search) or 'AUTHOR' (the Authors search). */
  fileType: 'GENERAL' | 'AUTHOR';
  criteria: Record<string, unknown>;
}

/** One administrator action (spec: who, what, counts, when; `createdAt` is when). */
export interface AuditDocument {
  actorId: string;
  actorEmail: string;
  /** e.g. `account.update`, `account.delete`, `access.denied`. */
  action: string;
  /** The account or object acted on, when there is one. */
  target: string;
  /** Counts or changed fields. */
  details: Record<string, unknown>;
}

interface RawDocument {
  id: string;
  owner_id: string;
  created_ms: number;
  body: string;
}

/**
 * Small JSON documents of one kind (export history entries, saved searches, audit entries) in
 * `{database}.documents`, always scoped to their owner.
 */
export class JsonDocumentsRepository<T> {
  readonly #client: ClickHouseClient;
  readonly #table: string;

  constructor(
    client: ClickHouseClient,
    database: string,
    readonly kind: string,
  ) {
    this.#client = client;
    this.#table = `${ident(database)}.documents`;
  }

  async save(doc: StoredDocument<T>): Promise<void> {
    await this.#write([doc], 0);
  }

  async remove(docs: StoredDocument<T>[]): Promise<void> {
    if (docs.length) await this.#write(docs, 1);
  }

  /** Removes the documents with these ids, whoever owns them (those of a file being removed). */
  async removeIds(ids: string[]): Promise<void> {
    if (ids.length) await this.remove(await this.#select('id IN {ids:Array(String)}', { ids }));
  }

  /** The owner's document with this id, or null (another account's document is null too). */
  async get(id: string, ownerId: string): Promise<StoredDocument<T> | null> {
    const [doc] = await this.#select('owner_id = {ownerId:String} AND id = {id:String}', { ownerId, id });
    return doc ?? null;
  }

  /** The owner's documents, newest first. */
  async list(ownerId: string): Promise<StoredDocument<T>[]> {
    return this.#select('owner_id = {ownerId:String}', { ownerId });
  }

  /** Every document of this kind, of every owner (administration only), newest first. */
  async listAll(): Promise<StoredDocument<T>[]> {
    return this.#select('1', {});
  }

  /** Documents of this kind over all owners. */
  async count(): Promise<number> {
    const rs = await this.#client.query({
      query: `SELECT count() AS n FROM ${this.#table} FINAL WHERE kind = {kind:String} AND is_deleted = 0`,
      query_params: { kind: this.kind },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: number }>();
    return Number(row?.n ?? 0);
  }

  async #select(where: string, params: Record<string, unknown>): Promise<StoredDocument<T>[]> {
    const rs = await this.#client.query({
      query: `SELECT id, owner_id, toUnixTimestamp64Milli(created_at) AS created_ms, body FROM ${this.#table} FINAL
              WHERE kind = {kind:String} AND is_deleted = 0 AND ${where} ORDER BY created_at DESC, id`,
      query_params: { ...params, kind: this.kind },
      format: 'JSONEachRow',
    });
    return (await rs.json<RawDocument>()).map((r) => ({
      id: r.id,
      ownerId: r.owner_id,
      createdAt: new Date(Number(r.created_ms)).toISOString(),
      body: JSON.parse(r.body) as T,
    }));
  }

  async #write(docs: StoredDocument<T>[], isDeleted: 0 | 1): Promise<void> {
    await this.#client.insert({
      table: this.#table,
      format: 'JSONEachRow',
      values: docs.map((d) => ({
        kind: this.kind,
        id: d.id,
        owner_id: d.ownerId,
        created_at: d.createdAt,
        body: JSON.stringify(d.body),
        version: nextVersion(),
        is_deleted: isDeleted,
      })),
    });
  }
}
