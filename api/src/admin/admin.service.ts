import { randomUUID } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { format as csvFormat } from 'fast-csv';
import type { AccountRow, AuditDocument, FileSelection, Storage } from '@sift/clickhouse';
import type { ObjectStore } from '@sift/object-store';
import type {
  AdminQueueView,
  AccountDeletion,
  AccountStats,
  AdminAccount,
  AuditEntry,
  Page,
  SystemStats,
} from '@sift/shared/contracts';
import { toAccount } from '../accounts/accounts.service.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import type { FilesService } from '../files/files.service.ts';
import type { UploadIntake } from '../files/upload-intake.ts';
import type { ExportHistory } from '../export/export-history.ts';
import { neutralise } from '@sift/shared/csv-injection';
import type { SavedQueries } from '../search/saved-queries.ts';
import { PEOPLE_CONTACT_HEADER, type PeopleService } from '../search/people.service.ts';

/** Ingest jobs by state (BullMQ's counts). */
/**
 * The contact exports: `emails` has one column (Email); `full` has Name (every name the email was
 * paired with, `; `-separated), Email and Source Files (the uploads it was found in).
 */
export type ContactExport = 'emails' | 'full';

/** Who is acting: the administrator's account. */
export type Actor = Pick<AccountRow, 'id' | 'email'>;

/** Owner id of the system-wide audit log. */
const AUDIT_OWNER = '';

/** Administration (spec sections 6 and 7, Admin): accounts, statistics and the audit log. */
export class AdminService {
  constructor(
    private readonly deps: {
      storage: Storage;
      files: FilesService;
      exports: ExportHistory;
      queries: SavedQueries;
      intake: UploadIntake;
      objects: ObjectStore;
      people: PeopleService;
    },
  ) {}

  /** Accounts filtered by state and sorted (default: full name), one page. */
  async listAccounts(q: {
    page: number;
    size: number;
    onboarded?: 'true' | 'false' | undefined;
    active?: 'true' | 'false' | undefined;
    sortBy: 'fullName' | 'email' | 'createdAt';
    sortOrder: 'asc' | 'desc';
  }): Promise<Page<AdminAccount>> {
    let all = await this.deps.storage.accounts.list();
    if (q.onboarded) all = all.filter((a) => a.onboarded === (q.onboarded === 'true'));
    if (q.active) all = all.filter((a) => a.active === (q.active === 'true'));
    const key = (a: AccountRow) =>
      q.sortBy === 'email'
        ? a.email.toLowerCase()
        : q.sortBy === 'createdAt'
          ? a.createdAt
          : `${a.firstName} ${a.lastName}`.trim().toLowerCase();
    all.sort((a, b) => key(a).localeCompare(key(b)) * (q.sortOrder === 'asc' ? 1 : -1));
    return page(all.map(toAdminAccount), q.page, q.size);
  }

  /** Accounts whose full name or email contains `query` (case-insensitive), by full name. */
  async searchAccounts(q: { query: string; page: number; size: number }): Promise<Page<AdminAccount>> {
    const needle = q.query.toLowerCase();
    const all = (await this.deps.storage.accounts.list()).filter((a) =>
      `${a.firstName} ${a.lastName}\n${a.email}`.toLowerCase().includes(needle),
    );
    return page(all.map(toAdminAccount), q.page, q.size);
  }

  async updateAccount(
    actor: Actor,
    id: string,
    patch: {
      active?: boolean | undefined;
      onboarded?: boolean | undefined;
      firstName?: string | undefined;
      lastName?: string | undefined;
    },
  ): Promise<AdminAccount> {
    if (id === actor.id && patch.active === false) {
      throw new ConflictError(
        'You cannot deactivate your own account: ask another administrator.',
        'SELF_DEACTIVATE',
      );
    }
    const account = await this.account(id);
    const next: AccountRow = {
      ...account,
      ...(patch.active === undefined ? {} : { active: patch.active }),
      ...(patch.onboarded === undefined ? {} : { onboarded: patch.onboarded }),
      ...(patch.firstName === undefined ? {} : { firstName: patch.firstName }),
      ...(patch.lastName === undefined ? {} : { lastName: patch.lastName }),
    };
    await this.deps.storage.accounts.save(next);
    await this.audit(actor, 'account.update', id, { ...patch });
    return toAdminAccount(next);
  }

  /**
   * Deletes an account and everything it owns: files (rows, originals, AUTHOR files), kept exports,
   * saved queries and upload sessions. An administrator cannot delete their own account (409).
   */
  /** The files of one account, or of every account (see FilesRepository.selection). */
  fileSelection(ownerId?: string): Promise<FileSelection> {
    return this.deps.storage.files.selection(ownerId);
  }

  async deleteAccount(actor: Actor, id: string): Promise<AccountDeletion> {
    if (id === actor.id) throw new ConflictError('You cannot delete your own account.', 'SELF_DELETE');
    const account = await this.account(id);
    const { files, exports, queries, intake, storage } = this.deps;
    const owned = await storage.files.list({ ownerId: id });
    let filesDeleted = 0;
    // GENERAL files first: deleting one also removes the AUTHOR file derived from it.
    for (const f of [...owned].sort((a, b) =>
      a.fileType === b.fileType ? 0 : a.fileType === 'GENERAL' ? -1 : 1,
    )) {
      try {
        await files.delete(id, f.id);
        filesDeleted++;
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
        filesDeleted++; // already gone with its source file
      }
    }
    const kept = await exports.list(id);
    for (const e of kept) await exports.delete(id, e.id);
    const saved = await queries.list(id);
    for (const q of saved) await queries.delete(id, q.id);
    const uploadSessionsDeleted = await intake.removeSessions(id);
    await storage.accounts.remove(account);
    const result: AccountDeletion = {
      accountId: id,
      filesDeleted,
      exportsDeleted: kept.length,
      savedQueriesDeleted: saved.length,
      uploadSessionsDeleted,
    };
    await this.audit(actor, 'account.delete', id, { email: account.email, ...result });
    return result;
  }

  async accountStats(accountId: string): Promise<AccountStats> {
    await this.account(accountId);
    const files = await this.deps.storage.files.list({ ownerId: accountId });
    const kept = await this.deps.exports.list(accountId);
    return {
      accountId,
      files: files.length,
      generalFiles: files.filter((f) => f.fileType === 'GENERAL').length,
      authorFiles: files.filter((f) => f.fileType === 'AUTHOR').length,
      failedFiles: files.filter((f) => f.status === 'FAILED').length,
      rows: files.filter((f) => f.status === 'PROCESSED').reduce((n, f) => n + f.totalRows, 0),
      exports: kept.length,
      savedQueries: (await this.deps.queries.list(accountId)).length,
      storageBytes: files.reduce((n, f) => n + f.sizeBytes, 0) + kept.reduce((n, e) => n + e.sizeBytes, 0),
    };
  }

  async systemStats(): Promise<SystemStats> {
    const { storage, objects } = this.deps;
    const accounts = await storage.accounts.list();
    const totals = await storage.rows.totals();
    return {
      accounts: accounts.length,
      activeAccounts: accounts.filter((a) => a.active).length,
      files: await storage.files.countAll(),
      rows: totals.rows,
      exports: await storage.exports.count(),
      storage: {
        clickhouseBytes: totals.diskBytes,
        originalsBytes: (await objects.usage('blobs/')).bytes,
        exportsBytes: (await objects.usage('exports/')).bytes,
      },
      queue: await this.deps.intake.queueCounts(),
    };
  }

  /**
   * The ingest queue now (see AdminQueueView): counts by state, the jobs (at most `limit` of each
   * state) with their owners' emails, and the age of the oldest waiting job (listed or not; as the
   * metric reads it).
   */
  async queueView(limit: number): Promise<AdminQueueView> {
    const [counts, jobs, oldestMs, accounts] = await Promise.all([
      this.deps.intake.queueCounts(),
      this.deps.intake.queueJobs(limit),
      this.deps.intake.queueOldestWaitingMs(),
      this.deps.storage.accounts.list(),
    ]);
    const emails = new Map(accounts.map((a) => [a.id, a.email]));
    return {
      counts,
      oldestWaitingSeconds: oldestMs === null ? null : oldestMs / 1000,
      jobs: jobs.map((j) => ({ ...j, ownerEmail: emails.get(j.ownerId) ?? '' })),
    };
  }

  /** Writes one entry of the audit log. */
  async audit(actor: Actor, action: string, target: string, details: Record<string, unknown>): Promise<void> {
    const body: AuditDocument = { actorId: actor.id, actorEmail: actor.email, action, target, details };
    await this.deps.storage.audit.save({
      id: randomUUID(),
      ownerId: AUDIT_OWNER,
      createdAt: new Date().toISOString(),
      body,
    });
  }

  /**
   * Writes the contacts of every account's people, installation-wide, as CSV (UTF-8 with a BOM,
   * cells neutralised against formula injection) to `out`: one row per person (see
   * PeopleService.contacts), account by account, most entries first. `emails`: the email to
   * write to and the others, for the people with one; `full`: every contact column and the
   * account the person is among. Returns how many people were written.
   */
  async writeContacts(kind: ContactExport, out: Writable): Promise<number> {
    const { storage, people } = this.deps;
    const owners = [
      ...new Set(
        (await storage.files.listAll())
          .filter((f) => f.fileType === 'AUTHOR' && f.status === 'PROCESSED')
          .map((f) => f.ownerId),
      ),
    ].sort();
    let n = 0;
    async function* records(): AsyncGenerator<string[]> {
      yield kind === 'emails' ? ['Email', 'Other Emails'] : [...PEOPLE_CONTACT_HEADER, 'Account'];
      for (const owner of owners) {
        const account = (await storage.accounts.get(owner))?.email ?? owner;
        for await (const row of people.contacts(owner, { query: '' })) {
          const [, email, others] = row;
          if (kind === 'emails' && !email) continue;
          n++;
          yield (kind === 'emails' ? [email!, others!] : [...row, account]).map(neutralise);
        }
      }
    }
    await pipeline(Readable.from(records()), csvFormat<string[], string[]>({ writeBOM: true }), out);
    return n;
  }

  /** The audit log, newest first, one page. */
  async auditLog(pageNo: number, size: number): Promise<Page<AuditEntry>> {
    const docs = await this.deps.storage.audit.list(AUDIT_OWNER);
    return page(
      docs.map((d) => ({ id: d.id, createdAt: d.createdAt, ...d.body })),
      pageNo,
      size,
    );
  }

  /**
   * The account with this id.
   *
   * @throws NotFoundError (404) when there is none
   */
  async account(id: string): Promise<AccountRow> {
    const account = await this.deps.storage.accounts.get(id);
    if (!account) throw new NotFoundError('No account with this id.', 'ACCOUNT_NOT_FOUND');
    return account;
  }
}

function toAdminAccount(a: AccountRow): AdminAccount {
  return { ...toAccount(a), createdAt: a.createdAt };
}

function page<T>(all: T[], pageNo: number, size: number): Page<T> {
  return {
    content: all.slice(pageNo * size, pageNo * size + size),
    totalElements: all.length,
    totalPages: Math.ceil(all.length / size),
    page: pageNo,
    size,
  };
}
