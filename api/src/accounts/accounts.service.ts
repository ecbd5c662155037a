import type { AccountRow, Storage } from '@sift/clickhouse';
import type { Account } from '@sift/shared/contracts';
import type { VerifiedToken } from '../auth/token-verifier.ts';
import type { RecordCache } from './record-cache.ts';

export const ADMIN_PERMISSION = 'admin:view';

/** The account behind a verified token, created on its first authenticated request. */
export class AccountsService {
  constructor(
    private readonly storage: Storage,
    private readonly userinfo: (token: string) => Promise<Record<string, unknown>>,
    private readonly records: RecordCache,
  ) {}

  /**
   * Loads the token's account (id = `sub`), creating it on first use: email and name from the token's
   * claims, else from the issuer's userinfo endpoint. A token with `admin:view` starts active; any
   * other new account is inactive until an administrator activates it.
   */
  async resolve(token: VerifiedToken): Promise<AccountRow> {
    const existing = await this.records.account(token.sub);
    if (existing) return existing;
    let claims: Record<string, unknown> = token.claims;
    if (typeof claims.email !== 'string') claims = { ...(await this.userinfo(token.token)), ...claims };
    const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    const [given = '', ...rest] = str(claims.name).split(/\s+/);
    const account: AccountRow = {
      id: token.sub,
      email: str(claims.email),
      firstName: str(claims.given_name) || given,
      lastName: str(claims.family_name) || rest.join(' '),
      active: token.permissions.includes(ADMIN_PERMISSION),
      onboarded: false,
      createdAt: new Date().toISOString(),
    };
    await this.storage.accounts.save(account);
    return account;
  }

  /** Completes profile setup: names saved, `onboarded` set. */
  async onboard(account: AccountRow, firstName: string, lastName: string): Promise<AccountRow> {
    const next = { ...account, firstName, lastName, onboarded: true };
    await this.storage.accounts.save(next);
    return next;
  }

  /** Changes the names given (the others stay). */
  async update(
    account: AccountRow,
    names: { firstName?: string | undefined; lastName?: string | undefined },
  ) {
    const next = {
      ...account,
      firstName: names.firstName ?? account.firstName,
      lastName: names.lastName ?? account.lastName,
    };
    await this.storage.accounts.save(next);
    return next;
  }

  get(id: string): Promise<AccountRow | null> {
    return this.storage.accounts.get(id);
  }

  findByEmail(email: string): Promise<AccountRow | null> {
    return this.storage.accounts.findByEmail(email);
  }

  /** Every account, by full name. */
  list(): Promise<AccountRow[]> {
    return this.storage.accounts.list();
  }

  /** Activates or deactivates an account; null when there is none with this id. */
  async setActive(id: string, active: boolean): Promise<AccountRow | null> {
    const account = await this.storage.accounts.get(id);
    if (!account) return null;
    const next = { ...account, active };
    await this.storage.accounts.save(next);
    return next;
  }
}

/** The public shape of an account (`GET /api/accounts/me`). */
export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    active: row.active,
    onboarded: row.onboarded,
  };
}
