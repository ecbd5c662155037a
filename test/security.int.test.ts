/**
 * Token checks (Security tests): every kind of bad access token gets 401; a token whose
 * permissions are absent, not a list, or not exactly `admin:view` gets 403 on admin routes. Tokens
 * are minted here with the dev identity provider's own signing key, so only the claim under test is
 * wrong.
 */
import { createPublicKey, randomUUID, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import { startTestSift } from './support/sift.ts';

let sift: RunningSift;
let jwk: JWK & { kid: string };
let issuer: string;

beforeAll(async () => {
  sift = await startTestSift();
  issuer = `${sift.url}/idp`;
  // The IdP publishes its keys at discovery; fetching them makes sure the key file exists.
  await fetch(`${issuer}/.well-known/openid-configuration`);
  jwk = JSON.parse(readFileSync(path.join(sift.config.dataDir, 'idp', 'signing-key.json'), 'utf8')) as JWK & {
    kid: string;
  };
});
afterAll(async () => {
  await sift?.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** A token signed with the IdP's key: valid unless `claims` overrides make it otherwise. */
async function mint(claims: Record<string, unknown> = {}, typ?: string): Promise<string> {
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({
    iss: issuer,
    aud: 'sift-api',
    sub: 'security-test-user',
    email: 'sec@example.org',
    name: 'Sec Tester',
    iat: now(),
    exp: now() + 300,
    permissions: [],
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, ...(typ ? { typ } : {}) })
    .sign(key);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function call(pathname: string, token?: string): Promise<Response> {
  return fetch(
    `${sift.url}/api${pathname}`,
    token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
  );
}

describe('access tokens', () => {
  it('accepts a well-formed token (the baseline the others differ from)', async () => {
    expect((await call('/accounts/me', await mint())).status).toBe(200);
  });

  it('refuses missing, malformed, expired, not-yet-valid, wrong-audience and wrong-issuer tokens with 401', async () => {
    const cases: [string, string | undefined][] = [
      ['missing', undefined],
      ['malformed', 'not.a.token'],
      ['garbage', 'abc'],
      ['expired beyond the 30 s tolerance', await mint({ exp: now() - 120, iat: now() - 600 })],
      ['not yet valid', await mint({ nbf: now() + 120 })],
      ['wrong audience', await mint({ aud: 'someone-else' })],
      ['wrong issuer', await mint({ iss: 'https://evil.example/idp' })],
      ['no subject', await mint({ sub: undefined })],
      ['no expiry', await mint({ exp: undefined })],
      ['issued in the future', await mint({ iat: now() + 3600 })],
      ['an ID token, not an access token', await mint({}, 'id+jwt')],
    ];
    for (const [name, token] of cases) {
      const res = await call('/accounts/me', token);
      expect(res.status, name).toBe(401);
      expect(((await res.json()) as { code: string }).code, name).toMatch(/TOKEN|AUTH|UNAUTHORIZED/);
    }
  });

  it("accepts a token typed as a JWT access token (RFC 9068), as the dev identity provider's are", async () => {
    expect((await call('/accounts/me', await mint({}, 'at+jwt'))).status).toBe(200);
  });

  it('answers 401 with a Bearer challenge (RFC 6750), naming a token that is not valid', async () => {
    expect((await call('/accounts/me')).headers.get('www-authenticate')).toBe('Bearer realm="sift"');
    const expired = await call('/accounts/me', await mint({ exp: now() - 120, iat: now() - 600 }));
    expect(expired.headers.get('www-authenticate')).toBe(
      'Bearer realm="sift", error="invalid_token", error_description="Your session has expired. Please sign in again."',
    );
  });

  it('refuses alg none and HMAC signed with the public key with 401', async () => {
    const payload = {
      iss: issuer,
      aud: 'sift-api',
      sub: 'forger',
      exp: now() + 300,
      permissions: ['admin:view'],
    };
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
    expect((await call('/accounts/me', none)).status).toBe(401);

    // The classic confusion: HS256 keyed with the (public) RSA key, as PEM text.
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
    const pem = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    const hmac = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
      .sign(new TextEncoder().encode(String(pem)));
    expect((await call('/accounts/me', hmac)).status).toBe(401);
    expect((await call('/admin/system/stats', hmac)).status).toBe(401);
  });
});

describe('permissions', () => {
  it('gives 403 on admin routes unless the token lists exactly admin:view', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['absent', { permissions: undefined }],
      ['a string instead of a list', { permissions: 'admin:view' }],
      ['different case', { permissions: ['ADMIN:VIEW'] }],
      ['another permission', { permissions: ['files:read'] }],
    ];
    for (const [name, claims] of cases) {
      const token = await mint({ ...claims, sub: `perm-${name}` });
      expect((await call('/admin/accounts/list', token)).status, name).toBe(403);
    }
    const admin = await mint({ permissions: ['admin:view'], sub: 'real-admin', email: 'admin2@example.org' });
    expect((await call('/admin/accounts/list', admin)).status).toBe(200);
  });
});

describe('HTTP hardening', () => {
  it('sends security headers and refuses a JSON body over 1 MB with 413', async () => {
    const res = await call('/config');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
    const big = await fetch(`${sift.url}/api/file/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await mint()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ searchCriteria: { Name: 'x'.repeat(1_100_000) } }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({
      error: 'The request body is too large (at most 1 MB of JSON).',
      code: 'BODY_TOO_LARGE',
    });
  });

  it('limits requests per client, counting the forwarded address only behind a trusted proxy', async () => {
    const limited = await startTestSift({ rateLimitPerMinute: 3 });
    const proxied = await startTestSift({ rateLimitPerMinute: 3, trustProxyHops: 1 });
    try {
      const get = (base: string, forwardedFor: string) =>
        fetch(`${base}/api/config`, { headers: { 'x-forwarded-for': forwardedFor } });
      // Without a trusted proxy, X-Forwarded-For changes nothing: the 4th request is refused.
      const statuses = [];
      for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'])
        statuses.push((await get(limited.url, ip)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await get(limited.url, '10.0.0.5');
      expect(await refused.json()).toEqual({
        error: 'Too many requests. Please wait a minute and try again.',
        code: 'RATE_LIMITED',
      });
      // Behind one trusted proxy, each forwarded client has its own allowance.
      const behind = [];
      for (let i = 0; i < 4; i++) behind.push((await get(proxied.url, '10.0.0.1')).status);
      expect(behind).toEqual([200, 200, 200, 429]);
      expect((await get(proxied.url, '10.0.0.2')).status).toBe(200);
    } finally {
      await limited.close();
      await proxied.close();
    }
  });

  it('counts a client across API processes that share Redis, as behind a load balancer', async () => {
    const queuePrefix = `sift-rate-${randomUUID()}`;
    const a = await startTestSift({ rateLimitPerMinute: 4, queuePrefix });
    const b = await startTestSift({ rateLimitPerMinute: 4, queuePrefix });
    try {
      const statuses = [];
      for (const base of [a.url, b.url, a.url, b.url, a.url, b.url])
        statuses.push((await fetch(`${base}/api/config`, { signal: AbortSignal.timeout(10_000) })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('answers a multipart body it cannot read with 400, not 500', async () => {
    const token = await mint({ sub: 'multipart-user', permissions: ['admin:view'], email: 'mp@example.org' });
    const onboard = await fetch(`${sift.url}/api/accounts/onboard`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Multi', lastName: 'Part' }),
    });
    expect(onboard.status).toBe(200);
    const upload = (contentType: string, body: string) =>
      fetch(`${sift.url}/api/file/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });
    const noBoundary = await upload('multipart/form-data', 'whatever');
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { code: string }).code).toBe('MALFORMED_UPLOAD');
    const cutShort = await upload(
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nName\nAda\n',
    );
    expect(cutShort.status).toBe(400);
    expect(((await cutShort.json()) as { error: string }).error).toMatch(/^The upload could not be read \(/);
    // Another multipart type: busboy reads form-data only (it answered 500).
    for (const contentType of ['multipart/mixed; boundary=XyZ', 'multipart/related; boundary=XyZ']) {
      const res = await upload(contentType, '--XyZ\r\nContent-Type: text/csv\r\n\r\nName\nAda\n--XyZ--\r\n');
      const { code } = (await res.json()) as { code: string };
      expect([contentType, res.status, code]).toEqual([contentType, 400, 'MALFORMED_UPLOAD']);
    }
  });
});
