/**
 * The admin API (Admin): everything behind `admin:view` (403 and an audit entry without
 * it), account lists with filters, sorting and paging, search, update, per-account and system
 * statistics, and deleting an account with everything it owns.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  Account,
  AccountDeletion,
  AccountStats,
  AdminAccount,
  AuditEntry,
  Page,
  SystemStats,
} from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let admin: ApiClient;
let adminId: string;
const users: Record<string, { client: ApiClient; id: string }> = {};

beforeAll(async () => {
  sift = await startTestSift({ adminEmails: ['admin@example.com', 'admin2@example.com'] });
  admin = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Ada', 'Admin');
  adminId = (await admin.json<Account>('/accounts/me')).id;
  for (const [key, email, name] of [
    ['zed', 'zed@example.org', 'Zed Zulu'],
    ['bea', 'bea@example.org', 'Bea Bravo'],
    ['cal', 'cal@example.org', 'Cal Charlie'],
  ] as const) {
    const client = await ApiClient.signIn(sift, email, name);
    users[key] = { client, id: (await client.json<Account>('/accounts/me')).id };
  }
  // Bea and Cal are activated and set up; Zed waits for approval.
  for (const key of ['bea', 'cal'] as const) {
    await admin.json(`/accounts/${users[key]!.id}/activate`, undefined, 'PUT');
    const [first, last] = key === 'bea' ? ['Bea', 'Bravo'] : ['Cal', 'Charlie'];
    await users[key]!.client.json('/accounts/onboard', { firstName: first, lastName: last });
  }
});
afterAll(async () => {
  await sift?.close();
});

it('refuses every admin route without admin:view, and writes the attempt to the audit log', async () => {
  const bea = users.bea!.client;
  for (const [method, p] of [
    ['GET', '/admin/accounts/list'],
    ['GET', '/admin/system/stats'],
    ['DELETE', `/admin/accounts/${adminId}`],
  ]) {
    expect((await bea.fetch(p!, { method })).status, p).toBe(403);
  }
  const audit = await admin.json<Page<AuditEntry>>('/admin/audit');
  expect(audit.content.filter((e) => e.action === 'access.denied').map((e) => [e.actorId, e.target])).toEqual(
    [
      [users.bea!.id, `/api/admin/accounts/${adminId}`],
      [users.bea!.id, '/api/admin/system/stats'],
      [users.bea!.id, '/api/admin/accounts/list'],
    ],
  );
});

it('lists accounts by full name, 10 a page, with state filters, sorting and search', async () => {
  const all = await admin.json<Page<AdminAccount>>('/admin/accounts/list');
  expect(all).toMatchObject({ totalElements: 4, page: 0, size: 10, totalPages: 1 });
  expect(all.content.map((a) => a.email)).toEqual([
    'admin@example.com',
    'bea@example.org',
    'cal@example.org',
    'zed@example.org',
  ]);
  const waiting = await admin.json<Page<AdminAccount>>('/admin/accounts/list?active=false');
  expect(waiting.content.map((a) => a.email)).toEqual(['zed@example.org']);
  const onboarded = await admin.json<Page<AdminAccount>>(
    '/admin/accounts/list?onboarded=true&sortBy=email&sortOrder=desc',
  );
  expect(onboarded.content.map((a) => a.email)).toEqual([
    'cal@example.org',
    'bea@example.org',
    'admin@example.com',
  ]);
  const second = await admin.json<Page<AdminAccount>>('/admin/accounts/list?page=1&size=3');
  expect(second).toMatchObject({ totalElements: 4, totalPages: 2 });
  expect(second.content.map((a) => a.email)).toEqual(['zed@example.org']);
  const found = await admin.json<Page<AdminAccount>>('/admin/accounts/search?query=BRAVO');
  expect(found.content.map((a) => a.email)).toEqual(['bea@example.org']);
  expect((await admin.fetch('/admin/accounts/list?sortBy=shoeSize')).status).toBe(400);
});

it('updates an account and says what was wrong with a bad body', async () => {
  const updated = await admin.json<AdminAccount>(`/admin/accounts/${users.zed!.id}`, { active: true }, 'PUT');
  expect(updated).toMatchObject({ email: 'zed@example.org', active: true, onboarded: false });
  const bad = await admin.sendJson(`/admin/accounts/${users.zed!.id}`, {}, { method: 'PUT' });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: string }).error).toBe(
    'Nothing to change: send active, onboarded, firstName or lastName.',
  );
  expect(
    (await admin.sendJson('/admin/accounts/no-such-id', { active: false }, { method: 'PUT' })).status,
  ).toBe(404);
});

it('refuses to let an administrator deactivate their own account', async () => {
  const res = await admin.sendJson(`/admin/accounts/${adminId}`, { active: false }, { method: 'PUT' });
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({
    error: 'You cannot deactivate your own account: ask another administrator.',
    code: 'SELF_DEACTIVATE',
  });
  expect((await admin.json<{ active: boolean }>('/accounts/me')).active).toBe(true);
});

it('counts an account’s data and the system’s, then deletes the account with all it owns', async () => {
  const cal = users.cal!.client;
  const [uploaded] = await cal.upload([
    {
      name: 'cal-papers.csv',
      bytes: new TextEncoder().encode('Authors,Email Addresses\n"Kim, J; Okafor, N",jkim@uni.edu\n'),
    },
  ]);
  const file = await cal.waitForIngest(uploaded!.id);
  expect(file.status).toBe('PROCESSED');
  const exported = await cal.sendJson('/file/export', { format: 'CSV' });
  await exported.arrayBuffer();
  await cal.json('/file/queries', { name: 'Kims', searchCriteria: { Authors: 'Kim' } });

  const stats = await admin.json<AccountStats>(`/admin/stats?accountId=${users.cal!.id}`);
  expect(stats).toMatchObject({
    files: 2,
    generalFiles: 1,
    authorFiles: 1,
    failedFiles: 0,
    rows: 3,
    exports: 1,
    savedQueries: 1,
  });
  expect(stats.storageBytes).toBeGreaterThan(file.sizeBytes);
  const system = await admin.json<SystemStats>('/admin/system/stats');
  expect(system).toMatchObject({ accounts: 4, activeAccounts: 4, files: 2, rows: 3, exports: 1 });
  expect(system.storage.clickhouseBytes).toBeGreaterThan(0);
  expect(system.storage.originalsBytes).toBe(file.sizeBytes);
  expect(system.queue).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });

  // One's own account cannot be confirmed for deletion; another's only with a confirmation naming it.
  const own = await admin.sendJson('/admin/confirmations', { action: 'delete-account', target: adminId });
  expect(((await own.json()) as { code: string }).code).toBe('SELF_DELETE');
  const unconfirmed = await admin.fetch(`/admin/accounts/${users.cal!.id}`, { method: 'DELETE' });
  expect(((await unconfirmed.json()) as { code: string }).code).toBe('CONFIRMATION_REQUIRED');
  const forAnother = await admin.fetch(`/admin/accounts/${users.cal!.id}`, {
    method: 'DELETE',
    ...(await admin.confirmed('delete-account', users.bea!.id)),
  });
  expect(((await forAnother.json()) as { code: string }).code).toBe('CONFIRMATION_MISMATCH');
  const deleted = await admin.fetch(`/admin/accounts/${users.cal!.id}`, {
    method: 'DELETE',
    ...(await admin.confirmed('delete-account', users.cal!.id)),
  });
  expect(deleted.status).toBe(200);
  const deletion = (await deleted.json()) as AccountDeletion;
  expect(deletion).toEqual({
    accountId: users.cal!.id,
    filesDeleted: 2,
    exportsDeleted: 1,
    savedQueriesDeleted: 1,
    uploadSessionsDeleted: 1,
  });
  expect((await admin.fetch(`/accounts/${users.cal!.id}`)).status).toBe(404);
  expect(await sift.storage.files.list({ ownerId: users.cal!.id })).toEqual([]);
  expect(await sift.storage.rows.totals()).toMatchObject({ rows: 0 });
  expect(
    readdirSync(path.join(sift.config.dataDir, 'blobs')).filter((n) => n.startsWith(file.filename)),
  ).toEqual([]);
  expect(readdirSync(path.join(sift.config.dataDir, 'exports'))).toEqual([]);
  const after = await admin.json<SystemStats>('/admin/system/stats');
  expect(after).toMatchObject({ accounts: 3, files: 0, rows: 0, exports: 0 });

  const audit = await admin.json<Page<AuditEntry>>('/admin/audit');
  expect(audit.content.slice(0, 2).map((e) => [e.action, e.target, e.actorEmail])).toEqual([
    ['account.delete', users.cal!.id, 'admin@example.com'],
    ['account.update', users.zed!.id, 'admin@example.com'],
  ]);
  expect(audit.content[0]!.details).toMatchObject({ email: 'cal@example.org', filesDeleted: 2 });
});

it('refuses a deactivated administrator every admin route, and self-deactivation by any route', async () => {
  // A second administrator, deactivated by the first: their token still says admin:view.
  const other = await ApiClient.signIn(sift, 'admin2@example.com', 'Ola Other');
  const otherId = (await other.json<Account>('/accounts/me')).id;
  await admin.json(`/accounts/${otherId}/activate`, undefined, 'PUT');
  await other.json('/accounts/onboard', { firstName: 'Ola', lastName: 'Other' });
  expect((await other.fetch('/admin/accounts/list')).status).toBe(200);
  expect((await other.sendJson('/accounts/deactivate', {}, { method: 'PUT' })).status).toBe(409);
  expect((await other.json<Account>('/accounts/me')).active).toBe(true);

  const off = await admin.sendJson(`/admin/accounts/${otherId}`, { active: false }, { method: 'PUT' });
  expect(off.status).toBe(200);
  for (const [method, path] of [
    ['GET', '/admin/accounts/list'],
    ['GET', '/accounts/active'],
    ['PUT', `/accounts/${users.zed!.id}/activate`],
    ['GET', `/accounts/email/${encodeURIComponent('bea@example.org')}`],
  ] as const) {
    const res = await other.fetch(path, { method });
    expect([path, res.status]).toEqual([path, 403]);
  }
  const refused = await other.fetch('/admin/accounts/list');
  expect(await refused.json()).toEqual({
    error: 'Your account is deactivated, so its administrator rights are suspended.',
    code: 'ACCOUNT_INACTIVE',
  });
});
