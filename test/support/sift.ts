import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSift, type Config, type RunningSift } from '@sift/api';
import { authorFileId } from '@sift/shared/author-files';
import {
  MASS_DELETE_CONFIRMATION,
  type Confirmation,
  type ConfirmedAction,
  type FileRecord,
  type SearchResponse,
  type TrackedFile,
  type UploadSession,
} from '@sift/shared/contracts';
import { signIn } from './oidc.ts';
import { waitFor } from './wait.ts';

export { waitFor };
export { freePort } from './ports.ts';

/** One chDB data directory per test process (chDB allows one per process); databases isolate tests. */
const processDataDir = mkdtempSync(path.join(tmpdir(), 'sift-test-'));
// Registered on import, so it runs after the test file's own afterAll hooks (which close Sift).
afterAll(() => rmSync(processDataDir, { recursive: true, force: true }));

/** Starts an isolated Sift: its own ClickHouse database and queue prefix, a random port, no web app. */
export function startTestSift(overrides: Partial<Config> = {}): Promise<RunningSift> {
  const id = randomUUID().replaceAll('-', '');
  return startSift({
    port: 0,
    dataDir: processDataDir,
    clickhouseDatabase: `test_${id}`,
    queuePrefix: `sift-test-${id}`,
    webDir: undefined,
    publicUrl: undefined,
    oidcIssuer: undefined,
    // Requests are not logged one by one (the failures are).
    logLevel: 'error',
    ...overrides,
  });
}

/** How long an ApiClient request without a signal of its own may take, ms. */
const REQUEST_DEADLINE_MS = 120_000;

/** A signed-in API caller. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  static async signIn(sift: RunningSift, email: string, name: string): Promise<ApiClient> {
    return new ApiClient(sift.url, await signIn(sift.url, email, name));
  }

  /** Signs in at `appUrl` as `firstName lastName` and completes profile setup (for an account that starts active). */
  static async onboarded(
    appUrl: string,
    email: string,
    firstName: string,
    lastName: string,
  ): Promise<ApiClient> {
    const client = new ApiClient(appUrl, await signIn(appUrl, email, `${firstName} ${lastName}`));
    await client.json('/accounts/onboard', { firstName, lastName });
    return client;
  }

  /**
   * Signs in at `sift` as a new (inactive) account, has `admin` activate it, and completes its
   * profile setup: an ordinary user able to use the data routes.
   */
  static async approved(
    sift: RunningSift,
    admin: ApiClient,
    email: string,
    firstName: string,
    lastName: string,
  ): Promise<ApiClient> {
    const client = await ApiClient.signIn(sift, email, `${firstName} ${lastName}`);
    const { id } = await client.json<{ id: string }>('/accounts/me');
    await admin.json(`/accounts/${id}/activate`, undefined, 'PUT');
    await client.json('/accounts/onboard', { firstName, lastName });
    return client;
  }

  /**
   * `fetch` of `/api{pathname}` with this client's token; the answer, whatever its status. Without
   * a signal of its own the request gives up after REQUEST_DEADLINE_MS.
   */
  fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    return fetch(`${this.baseUrl}/api${pathname}`, {
      ...init,
      headers,
      signal: init.signal ?? AbortSignal.timeout(REQUEST_DEADLINE_MS),
    });
  }

  /**
   * Sends `body` as JSON to `/api{pathname}` (POST unless `init.method` says otherwise, with
   * `init.headers` beside the content type); the answer, whatever its status.
   */
  sendJson(pathname: string, body: unknown, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('content-type', 'application/json');
    return this.fetch(pathname, { method: 'POST', ...init, headers, body: JSON.stringify(body) });
  }

  /** The JSON answer of `pathname` (GET, or `method` with `body` as JSON); throws unless 2xx. */
  async json<T>(pathname: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
    const res =
      body === undefined
        ? await this.fetch(pathname, { method })
        : await this.sendJson(pathname, body, { method });
    if (!res.ok) throw new Error(`${method} ${pathname}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /**
   * The headers of a confirmed destructive admin call: a confirmation of `action` on `target`
   * (`POST /admin/confirmations`, with the typed phrase), in `X-Confirm`. Throws unless issued.
   */
  async confirmed(action: ConfirmedAction, target?: string): Promise<{ headers: Record<string, string> }> {
    const { token } = await this.json<Confirmation>('/admin/confirmations', {
      action,
      target,
      phrase: MASS_DELETE_CONFIRMATION,
    });
    return { headers: { 'x-confirm': token } };
  }

  /** Sends files (name → bytes) to `POST /file/upload-multiple`; the answer, whatever its status. */
  postUpload(files: { name: string; bytes: Uint8Array }[]): Promise<Response> {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([f.bytes]), f.name);
    return this.fetch('/file/upload-multiple', { method: 'POST', body: form });
  }

  /** Uploads files (name → bytes) with `POST /file/upload-multiple`; throws unless it answers 201. */
  async upload(files: { name: string; bytes: Uint8Array }[]): Promise<FileRecord[]> {
    const res = await this.postUpload(files);
    if (res.status !== 201) throw new Error(`upload: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { files: FileRecord[] }).files;
  }

  /**
   * Uploads files already on disk like `upload`, but sent by another process (curl, at nice 19), so
   * sending them costs this process (which runs Sift) nothing, as when the uploader's browser is
   * elsewhere.
   * The token goes to curl on its standard input, never on its command line.
   */
  async uploadFromElsewhere(files: { name: string; path: string }[]): Promise<FileRecord[]> {
    const args = ['-sS', '--max-time', '600', '-H', '@-', '-w', '\\n%{http_code}'];
    for (const f of files) args.push('-F', `files=@${f.path};filename=${f.name}`);
    const out = await new Promise<string>((resolve, reject) => {
      // At the lowest priority: on a machine of its own the client would take none of Sift's cores.
      const curl = execFile(
        'nice',
        ['-n', '19', 'curl', ...args, `${this.baseUrl}/api/file/upload-multiple`],
        { maxBuffer: 16 * 2 ** 20, timeout: 620_000 },
        (e, stdout) => (e ? reject(e) : resolve(stdout)),
      );
      curl.stdin!.end(this.token ? `authorization: Bearer ${this.token}\n` : '');
    });
    const end = out.lastIndexOf('\n');
    const [status, body] = [out.slice(end + 1), out.slice(0, end)];
    if (status !== '201') throw new Error(`upload: HTTP ${status} ${body}`);
    return (JSON.parse(body) as { files: FileRecord[] }).files;
  }

  /**
   * Waits until this account's newest "Reindex" upload session has read every file (a reindex
   * leaves files PROCESSED while they wait their turn, so their status cannot say it).
   */
  async waitForReindex(timeoutMs = 90_000): Promise<void> {
    await waitFor(
      () => this.json<UploadSession[]>('/upload-tracking/sessions'),
      (all) => {
        const reindexes = all.filter((s) => s.sessionName === 'Reindex');
        return reindexes.length > 0 && reindexes.every((s) => s.isCompleted);
      },
      { timeoutMs, intervalMs: 200, what: 'the reindex to end' },
    );
  }

  /**
   * Waits until the ingest of file `id` has ended: the file is no longer PROCESSING, nor is the
   * AUTHOR file derived from it (it is PROCESSED, searchable, before its AUTHOR file is done), and
   * its upload session's entry says the job is over (the people it gives are updated after its
   * AUTHOR file is searchable).
   */
  async waitForIngest(id: string, timeoutMs = 90_000): Promise<FileRecord> {
    const deadline = Date.now() + timeoutMs;
    const ended = await waitFor(
      () => this.json<FileRecord>(`/file/files/${id}`),
      (file) => file.status !== 'PROCESSING',
      { timeoutMs, intervalMs: 200, what: `the ingest of file ${id} to end` },
    );
    await waitFor(
      async () => {
        const res = await this.fetch(`/file/files/${authorFileId(id)}`);
        return res.status === 404 ? null : ((await res.json()) as FileRecord);
      },
      (author) => author?.status !== 'PROCESSING',
      { timeoutMs: Math.max(1, deadline - Date.now()), intervalMs: 200, what: `the AUTHOR file of ${id}` },
    );
    await waitFor(
      () => this.#trackedEntry(id),
      (entry) => !entry || entry.status === 'COMPLETED' || entry.status === 'FAILED',
      { timeoutMs: Math.max(1, deadline - Date.now()), intervalMs: 200, what: `the job of ${id} to end` },
    );
    return ended;
  }

  /** File `id`'s entry in the account's upload sessions (null: in none). */
  async #trackedEntry(id: string): Promise<TrackedFile | null> {
    for (const session of await this.json<UploadSession[]>('/upload-tracking/sessions')) {
      if (session.isCompleted) continue;
      const files = await this.json<TrackedFile[]>(`/upload-tracking/sessions/${session.id}/files`);
      const entry = files.find((f) => f.fileId === id);
      if (entry) return entry;
    }
    return null;
  }
}

/**
 * A running Sift with an administrator (admin@example.com, the first account) and one approved
 * user whose uploads have all been PROCESSED (the test fails otherwise).
 */
export async function siftWithData(
  user: { email: string; firstName: string; lastName: string },
  files: { name: string; bytes: Uint8Array }[],
  overrides: Partial<Config> = {},
): Promise<{ sift: RunningSift; admin: ApiClient; user: ApiClient; files: FileRecord[] }> {
  const sift = await startTestSift(overrides);
  const admin = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Ada', 'Admin');
  const client = await ApiClient.approved(sift, admin, user.email, user.firstName, user.lastName);
  const processed: FileRecord[] = [];
  for (const f of await client.upload(files)) {
    const done = await client.waitForIngest(f.id);
    if (done.status !== 'PROCESSED') throw new Error(`${f.originalFilename} ended ${done.status}`);
    processed.push(done);
  }
  return { sift, admin, user: client, files: processed };
}

/**
 * Everything a user's searches show: the general search and the Authors search, every row (file
 * ids left out, so a reindexed or restored installation compares equal).
 */
export async function searchView(client: ApiClient) {
  const general = await client.json<SearchResponse>('/file/search', { size: 1000 });
  const authors = await client.json<SearchResponse>('/file/preprocessed/search', { size: 1000 });
  const strip = (r: SearchResponse) => ({
    total: r.totalRecords,
    data: r.data.map(({ __fileId: _, ...rest }) => rest),
  });
  return { general: strip(general), authors: strip(authors) };
}

/** A test file's Sift and its two accounts, filled in by the hooks useTwoAccounts registers. */
export interface TwoAccounts {
  sift: RunningSift;
  /** `admin@example.com`, onboarded and active. */
  admin: ApiClient;
  /** `other@example.com`, approved by `admin`. */
  other: ApiClient;
}

/**
 * Registers a test file's hooks: a Sift of its own (`overrides` as startTestSift), an administrator
 * named `adminName` (first and last) and a second account, approved, started before the tests and
 * closed after them. The object returned is filled in before the first test.
 */
export function useTwoAccounts(adminName: [string, string], overrides: Partial<Config> = {}): TwoAccounts {
  const accounts = {} as TwoAccounts;
  beforeAll(async () => {
    accounts.sift = await startTestSift(overrides);
    accounts.admin = await ApiClient.onboarded(accounts.sift.url, 'admin@example.com', ...adminName);
    accounts.other = await ApiClient.approved(
      accounts.sift,
      accounts.admin,
      'other@example.com',
      'Otto',
      'Other',
    );
  });
  afterAll(async () => {
    await accounts.sift?.close();
  });
  return accounts;
}
