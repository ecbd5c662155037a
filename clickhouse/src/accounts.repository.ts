import type { ClickHouseClient } from '@clickhouse/client';
import type { RecordsChanged } from './files.repository.ts';
import { ident } from './sql.ts';
import { nextVersion } from './replacing-version.ts';

/** An account row. `id` is the identity provider's `sub`. */
export interface AccountRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  active: boolean;
  onboarded: boolean;
  /** ISO 8601, UTC. */
  createdAt: string;
}

interface RawAccount {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  active: number;
  onboarded: number;
  created_at_ms: number;
}

const COLUMNS =
  'id, email, first_name, last_name, active, onboarded, toUnixTimestamp64Milli(created_at) AS created_at_ms';

/** Accounts in `{database}.accounts` (ReplacingMergeTree, read with FINAL). */
export class AccountsRepository {
  readonly #client: ClickHouseClient;
  readonly #table: string;
  readonly #changed: RecordsChanged;

  /** `changed`: called after every write with the account's id (its owner id). */
  constructor(client: ClickHouseClient, database: string, changed: RecordsChanged = async () => {}) {
    this.#client = client;
    this.#table = `${ident(database)}.accounts`;
    this.#changed = changed;
  }

  /** The account with this id, or null when there is none (or it was deleted). */
  async get(id: string): Promise<AccountRow | null> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS}
              FROM ${this.#table} FINAL WHERE id = {id:String} AND is_deleted = 0 LIMIT 1`,
      query_params: { id },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<RawAccount>();
    return row ? toAccount(row) : null;
  }

  /** Every account (not deleted), by full name then email. */
  async list(): Promise<AccountRow[]> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS}
              FROM ${this.#table} FINAL WHERE is_deleted = 0
              ORDER BY lowerUTF8(concat(first_name, ' ', last_name)), lowerUTF8(email), id`,
      format: 'JSONEachRow',
    });
    return (await rs.json<RawAccount>()).map(toAccount);
  }

  /** The account with this email (compared case-insensitively), or null. */
  async findByEmail(email: string): Promise<AccountRow | null> {
    const rs = await this.#client.query({
      query: `SELECT ${COLUMNS}
              FROM ${this.#table} FINAL WHERE lowerUTF8(email) = lowerUTF8({email:String}) AND is_deleted = 0
              ORDER BY created_at LIMIT 1`,
      query_params: { email },
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<RawAccount>();
    return row ? toAccount(row) : null;
  }

  /** Marks the account deleted. */
  async remove(account: AccountRow): Promise<void> {
    await this.#write(account, 1);
  }

  /** Writes the whole account (insert or update). */
  async save(account: AccountRow): Promise<void> {
    await this.#write(account, 0);
  }

  async #write(account: AccountRow, isDeleted: 0 | 1): Promise<void> {
    await this.#client.insert({
      table: this.#table,
      format: 'JSONEachRow',
      values: [
        {
          id: account.id,
          email: account.email,
          first_name: account.firstName,
          last_name: account.lastName,
          active: account.active ? 1 : 0,
          onboarded: account.onboarded ? 1 : 0,
          created_at: account.createdAt,
          version: nextVersion(),
          is_deleted: isDeleted,
        },
      ],
    });
    await this.#changed([account.id]);
  }
}

function toAccount(row: RawAccount): AccountRow {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    active: row.active === 1,
    onboarded: row.onboarded === 1,
    createdAt: new Date(Number(row.created_at_ms)).toISOString(),
  };
}
