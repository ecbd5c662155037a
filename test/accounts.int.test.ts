/**
 * The accounts API (Accounts): a caller reads and changes only their own account; reading
 * another needs `admin:view` (403 otherwise); data routes are closed to inactive accounts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { Account, AccountExists, AccountOnboarded } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let admin: ApiClient;
let user: ApiClient;
let adminAccount: Account;
let userAccount: Account;

beforeAll(async () => {
  sift = await startTestSift();
  admin = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Ada', 'Admin');
  user = await ApiClient.signIn(sift, 'Uma.User@example.org', 'Uma User');
  adminAccount = await admin.json<Account>('/accounts/me');
  userAccount = await user.json<Account>('/accounts/me');
});
afterAll(async () => {
  await sift?.close();
});

const status = async (client: ApiClient, path: string, method = 'GET') =>
  (await client.fetch(path, { method })).status;

it('lets a new, inactive account read and change its own account only', async () => {
  expect(userAccount).toMatchObject({ email: 'Uma.User@example.org', active: false, onboarded: false });
  expect(await user.json<Account>('/accounts/register', {})).toEqual(userAccount);
  expect(await user.json<Account>(`/accounts/${userAccount.id}`)).toEqual(userAccount);
  expect(await user.json<Account>('/accounts/email/uma.user@EXAMPLE.org')).toEqual(userAccount);
  expect(await user.json<AccountOnboarded>(`/accounts/${userAccount.id}/onboarded`)).toEqual({
    onboarded: false,
  });
  expect(await user.json<AccountExists>(`/accounts/exists/${userAccount.email}`)).toEqual({ exists: true });

  for (const path of [
    `/accounts/${adminAccount.id}`,
    `/accounts/${adminAccount.id}/onboarded`,
    `/accounts/email/${adminAccount.email}`,
    `/accounts/exists/${adminAccount.email}`,
    '/accounts/active',
  ]) {
    expect(await status(user, path), path).toBe(403);
  }
  expect(await status(user, `/accounts/${userAccount.id}/activate`, 'PUT')).toBe(403);
  expect(await status(user, '/file/files')).toBe(403);

  const renamed = await user.json<Account>('/accounts/update?firstName=%20Umaa%20', undefined, 'PUT');
  expect(renamed).toMatchObject({ firstName: 'Umaa', lastName: 'User' });
  const blank = await user.fetch('/accounts/update?lastName=%20', { method: 'PUT' });
  expect(blank.status).toBe(400);
  expect(((await blank.json()) as { error: string }).error).toBe('Last name is required');
});

it('lets an administrator read any account, list active ones, and activate; a user may deactivate themselves', async () => {
  expect(await admin.json<Account>(`/accounts/${userAccount.id}`)).toMatchObject({
    id: userAccount.id,
    firstName: 'Umaa',
  });
  expect(await admin.json<Account>(`/accounts/email/${userAccount.email.toUpperCase()}`)).toMatchObject({
    id: userAccount.id,
  });
  expect(await admin.json<AccountExists>('/accounts/exists/nobody@example.org')).toEqual({ exists: false });
  expect(await status(admin, '/accounts/no-such-id')).toBe(404);
  expect((await admin.json<Account[]>('/accounts/active')).map((a) => a.id)).toEqual([adminAccount.id]);

  await admin.json(`/accounts/${userAccount.id}/activate`, undefined, 'PUT');
  expect((await admin.json<Account[]>('/accounts/active')).map((a) => a.id).sort()).toEqual(
    [adminAccount.id, userAccount.id].sort(),
  );
  await user.json('/accounts/onboard', { firstName: 'Uma', lastName: 'User' });
  expect(await status(user, '/file/files')).toBe(200);

  expect(await user.json<Account>('/accounts/deactivate', undefined, 'PUT')).toMatchObject({ active: false });
  expect(await status(user, '/file/files')).toBe(403);
});
