import { createHash, randomBytes } from 'node:crypto';

/** A tiny cookie jar for following the identity provider's redirects with fetch. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in through the built-in dev identity provider exactly as a browser would (authorization code
 * + PKCE, the sign-in form, the redirect back with a code, the token request) and returns the access token.
 */
export async function signIn(appUrl: string, email: string, name: string): Promise<string> {
  const issuer = `${appUrl}/idp`;
  const redirectUri = `${appUrl}/`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = new CookieJar();
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(url, appUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(res);
    return res;
  };
  const auth = new URL(`${issuer}/auth`);
  auth.search = new URLSearchParams({
    client_id: 'sift-web',
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    audience: 'sift-api',
  }).toString();
  let res = await go(auth.toString());
  const interaction = res.headers.get('location');
  if (!interaction?.includes('/interaction/')) throw new Error(`No sign-in interaction (HTTP ${res.status})`);
  res = await go(interaction);
  const form = await res.text();
  const action = /action="([^"]+)"/.exec(form)?.[1];
  if (!action) throw new Error('No sign-in form');
  res = await go(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, name }).toString(),
  });
  let location = res.headers.get('location');
  const backAtApp = (l: string) => {
    const u = new URL(l, appUrl);
    return `${u.origin}${u.pathname}` === redirectUri;
  };
  for (let hops = 0; location && !backAtApp(location) && hops < 5; hops++) {
    res = await go(location);
    location = res.headers.get('location');
  }
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`Sign-in did not return a code (HTTP ${res.status} to ${location})`);
  const token = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: 'sift-web',
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await token.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token) throw new Error(`Token request failed: ${body.error_description ?? token.status}`);
  return body.access_token;
}
