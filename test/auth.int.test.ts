/**
 * Any standards-compliant issuer works with no code change: one Sift runs the dev identity provider,
 * a second is configured with it as its external OIDC_ISSUER and must accept its tokens. Start-up
 * fails at once, saying how to provide Redis, when Redis does not answer.
 */
import { executionAsyncId } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startSift, type RunningSift } from '@sift/api';
import type { Account, PublicConfig } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

const running: RunningSift[] = [];
afterAll(async () => {
  for (const s of running.reverse()) await s.close();
});

/** A second Sift, with a database and queue of its own, that trusts `idp`'s dev identity provider. */
async function startRelyingSift(
  idp: RunningSift,
  oidc: Partial<RunningSift['config']>,
): Promise<RunningSift> {
  const id = randomUUID().replaceAll('-', '');
  const sift = await startSift({
    ...idp.config,
    port: 0,
    publicUrl: undefined,
    clickhouseDatabase: `test_${id}`,
    queuePrefix: `sift-test-${id}`,
    ...oidc,
  });
  running.push(sift);
  return sift;
}

it('verifies tokens from an external issuer given by configuration', async () => {
  const idp = await startTestSift();
  running.push(idp);
  const external = await startRelyingSift(idp, { oidcIssuer: `${idp.url}/idp` });

  const config = (await (await fetch(`${external.url}/api/config`)).json()) as PublicConfig;
  expect(config.oidc.issuer).toBe(`${idp.url}/idp`);
  // No dev IdP of its own when an issuer is configured.
  expect((await fetch(`${external.url}/idp/.well-known/openid-configuration`)).status).toBe(404);

  const token = (await ApiClient.signIn(idp, 'someone@example.net', 'Sam Someone')).token;
  const me = await new ApiClient(external.url, token).json<Account>('/accounts/me');
  expect(me).toMatchObject({
    email: 'someone@example.net',
    firstName: 'Sam',
    lastName: 'Someone',
    active: false,
  });
});

it("fetches discovery from OIDC_DISCOVERY_URL when the browser's issuer address is not reachable here", async () => {
  const idp = await startTestSift();
  running.push(idp);
  // The browser's address for the issuer (a name this machine cannot resolve), and the address
  // this server reaches it at: as with an identity provider beside Sift in a container network.
  const external = await startRelyingSift(idp, {
    oidcIssuer: 'http://sift-idp.invalid/idp',
    oidcDiscoveryUrl: `${idp.url}/idp/.well-known/openid-configuration`,
  });

  const config = (await (await fetch(`${external.url}/api/config`)).json()) as PublicConfig;
  expect(config.oidc.issuer).toBe('http://sift-idp.invalid/idp');
  const token = (await ApiClient.signIn(idp, 'inside@example.net', 'Ida Inside')).token;
  const me = await new ApiClient(external.url, token).json<Account>('/accounts/me');
  expect(me).toMatchObject({ email: 'inside@example.net', firstName: 'Ida', lastName: 'Inside' });
});

it('refuses to start without Redis, saying how to provide one', async () => {
  await expect(startSift({ port: 0, redisUrl: 'redis://127.0.0.1:1', webDir: undefined })).rejects.toThrow(
    /Redis is not reachable at redis:\/\/127\.0\.0\.1:1.*set REDIS_URL/,
  );
});

/**
 * True while async hooks track promises in this process: then each continuation runs under an
 * async id of its own (Node documents that, without them, promise contexts get no ids).
 */
async function promiseHooksInstalled(): Promise<boolean> {
  await Promise.resolve();
  const first = executionAsyncId();
  await Promise.resolve();
  return executionAsyncId() !== first;
}

it("leaves no async hooks behind after the dev IdP's requests (they would slow every promise after)", async () => {
  expect(await promiseHooksInstalled()).toBe(false);
  const sift = await startTestSift();
  running.push(sift);
  const token = (await ApiClient.signIn(sift, 'hooks@example.net', 'Hal Hooks')).token;
  expect(token).toMatch(/^ey/);
  expect(await promiseHooksInstalled()).toBe(false);
});
