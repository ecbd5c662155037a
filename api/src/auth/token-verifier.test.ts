/**
 * A valid token is not refused because the issuer's keys could not be fetched again at that moment
 * (the issuer slow, or this process too busy to hear it in time): the keys fetched last verify it.
 * With no key ever fetched the answer is 503, not 401 (which signs the person out); a token whose
 * key the issuer never had is still 401. The issuer is a loopback server whose key set can be made
 * to hang.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SignInUnavailableError, TokenVerifier } from './token-verifier.ts';
import { UnauthorizedError } from '../errors.ts';

let server: Server;
let issuer = '';
let keysHang = false;
let signing: CryptoKey;
let stranger: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signing = pair.privateKey;
  stranger = (await generateKeyPair('ES256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === '/jwks') {
      if (keysHang) return; // never answers: the fetch times out
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const token = (key: CryptoKey, kid = 'k1') =>
  new SignJWT({ scope: 'openid' })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(issuer)
    .setAudience('sift')
    .setSubject('someone')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);

/** A verifier whose fetched keys are stale at once (every verify fetches them again). */
const verifier = () =>
  new TokenVerifier({
    issuer,
    audience: 'sift',
    permissionsClaim: 'permissions',
    jwksCacheMaxAgeMs: 0,
    jwksTimeoutMs: 200,
  });

it('verifies a valid token with the keys fetched last while the issuer does not answer', async () => {
  keysHang = false;
  const v = verifier();
  expect((await v.verify(await token(signing))).sub).toBe('someone');
  keysHang = true;
  expect((await v.verify(await token(signing))).sub).toBe('someone');
  // A key the issuer never had is still the token's fault.
  await expect(v.verify(await token(stranger, 'k2'))).rejects.toBeInstanceOf(UnauthorizedError);
  await expect(v.verify(await token(stranger))).rejects.toBeInstanceOf(UnauthorizedError);
});

it('answers 503, not 401, when no key was ever fetched and the issuer does not answer', async () => {
  keysHang = true;
  const error = await verifier()
    .verify(await token(signing))
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SignInUnavailableError);
  expect(error).toMatchObject({ status: 503, code: 'SIGN_IN_UNAVAILABLE' });
});
