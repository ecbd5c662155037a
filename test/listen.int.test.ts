/**
 * Safe by default: with the development identity provider on, Sift listens on loopback only, and a
 * HOST that reaches the network is refused unless explicitly allowed.
 */
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { startTestSift } from './support/sift.ts';

it('listens on loopback only while the dev identity provider is on', async () => {
  const sift = await startTestSift();
  try {
    expect((sift.server.address() as AddressInfo).address).toBe('127.0.0.1');
  } finally {
    await sift.close();
  }
});

it('refuses a network address with the dev identity provider, saying what to set', async () => {
  await expect(startTestSift({ host: '0.0.0.0' })).rejects.toThrow(
    'HOST=0.0.0.0 would let anyone on the network sign in through the development identity provider, as any email. Set OIDC_ISSUER to your identity provider, or ALLOW_DEV_IDP_ON_NETWORK=true if this network is trusted.',
  );
});

it('listens where HOST says when the network is explicitly allowed', async () => {
  const sift = await startTestSift({ host: '0.0.0.0', allowDevIdpOnNetwork: true });
  try {
    expect((sift.server.address() as AddressInfo).address).toBe('0.0.0.0');
  } finally {
    await sift.close();
  }
});
