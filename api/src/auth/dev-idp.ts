/**
 * The built-in development identity provider (oidc-provider, a certified OpenID Provider), mounted at
 * `/idp` when `OIDC_ISSUER` is unset. Its sign-in form asks for an email and a name; `ADMIN_EMAILS`
 * get `admin:view`. Access tokens are RS256 JWTs for the configured audience, carrying `permissions`,
 * `email` and `name`. Keys and known users are kept under `DATA_DIR/idp` so tokens survive restarts.
 * Refuses to run in production.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Router } from 'express';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import requestContext from 'oidc-provider/lib/helpers/als.js';

export interface DevIdpOptions {
  /** `$PUBLIC_URL/idp`. */
  issuer: string;
  /** The origin the SPA runs at (redirect and post-logout target). */
  appOrigin: string;
  clientId: string;
  audience: string;
  permissionsClaim: string;
  adminEmails: string[];
  dataDir: string;
  production: boolean;
}

interface DevUser {
  email: string;
  name: string;
}

const SCOPE = 'openid profile email';
/**
 * RFC 8707 resource indicators must be absolute URIs while the audience (`aud`) may be any string
 * (`sift-api` by default): requests without a `resource` get this one, which maps to the audience.
 */
const DEFAULT_RESOURCE = 'urn:sift:api';

/** Stable subject for a dev user: derived from the email, so the same person keeps one account. */
export function devSubject(email: string): string {
  return `dev-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

async function loadJson<T>(file: string, make: () => Promise<T>): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    const value = await make();
    await writeFile(file, JSON.stringify(value), { mode: 0o600 });
    return value;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem}
label{display:block;margin:.8rem 0 .3rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem}.note{color:#555;font-size:.9rem}</style></head>
<body>${body}</body></html>`;
}

/** Builds the provider and an express router (mount at `/idp`) with its sign-in interaction. */
export async function createDevIdp(options: DevIdpOptions): Promise<Router> {
  if (options.production) {
    throw new Error(
      'The built-in development identity provider cannot run with NODE_ENV=production: set OIDC_ISSUER.',
    );
  }
  const dir = path.join(options.dataDir, 'idp');
  await mkdir(dir, { recursive: true });
  const jwk = await loadJson(path.join(dir, 'signing-key.json'), async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    return {
      ...(await exportJWK(privateKey)),
      alg: 'RS256',
      use: 'sig',
      kid: randomBytes(8).toString('hex'),
    };
  });
  const cookieKeys = await loadJson(path.join(dir, 'cookie-keys.json'), async () => [
    randomBytes(32).toString('hex'),
  ]);
  const usersFile = path.join(dir, 'users.json');
  const users = await loadJson<Record<string, DevUser>>(usersFile, async () => ({}));

  const permissionsOf = (sub: string) =>
    options.adminEmails.includes(users[sub]?.email.toLowerCase() ?? '') ? ['admin:view'] : [];
  const identityClaims = (sub: string) => {
    const user = users[sub];
    const [given = '', ...rest] = (user?.name ?? '').split(/\s+/);
    return {
      sub,
      email: user?.email,
      email_verified: true,
      name: user?.name,
      given_name: given,
      family_name: rest.join(' '),
    };
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${options.appOrigin}/`],
        post_logout_redirect_uris: [options.appOrigin, `${options.appOrigin}/`],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: cookieKeys },
    scopes: ['openid', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      Interaction: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      // Sift's own pages for sign-out (the defaults load web fonts, which fail offline).
      rpInitiatedLogout: {
        enabled: true,
        // Sign-out from Sift itself (its ID token as the hint, which the provider has checked) is
        // confirmed at once and returns to the app's origin (spec section 1); any other request
        // to end the session asks first.
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          const fromSift = Boolean(
            (ctx.oidc.params as { id_token_hint?: unknown } | undefined)?.id_token_hint,
          );
          ctx.body = page(
            'Sign out of Sift',
            `<h1>${fromSift ? 'Signing you out…' : 'Sign out of Sift?'}</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>${
              fromSift
                ? `<script>const f = document.getElementById('op.logoutForm'); const yes = document.createElement('input');
yes.type = 'hidden'; yes.name = 'logout'; yes.value = 'yes'; f.appendChild(yes); f.submit();</script>`
                : ''
            }`,
          );
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = page(
            'Signed out',
            `<h1>You are signed out</h1><p><a href="${escapeHtml(options.appOrigin)}">Back to Sift</a></p>`,
          );
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => DEFAULT_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== DEFAULT_RESOURCE && resource !== options.audience) {
            throw new Error(`Unknown resource ${resource}`);
          }
          return {
            scope: SCOPE,
            audience: options.audience,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    findAccount: (_ctx, sub) =>
      users[sub] ? { accountId: sub, claims: () => identityClaims(sub) } : undefined,
    extraTokenClaims: (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const { email, name } = identityClaims(token.accountId);
      return { [options.permissionsClaim]: permissionsOf(token.accountId), email, name };
    },
    interactions: { url: (_ctx, interaction) => `/idp/interaction/${interaction.uid}` },
    // A first-party client: grant its scopes without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (grantId) {
        const existing = await oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope(SCOPE);
      grant.addResourceScope(DEFAULT_RESOURCE, SCOPE);
      if (options.audience !== DEFAULT_RESOURCE) grant.addResourceScope(options.audience, SCOPE);
      await grant.save();
      return grant;
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Sign-in error</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p><p><a href="${escapeHtml(options.appOrigin)}">Back to Sift</a></p>`,
      );
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;

  const router = express.Router();
  router.get('/interaction/:uid', async (req, res) => {
    const details = await provider.interactionDetails(req, res);
    const uid = escapeHtml(details.uid);
    res.type('html').send(
      page(
        'Sign in to Sift',
        `<h1>Sign in to Sift</h1><p class="note">Development sign-in: no password. Any email works; ${escapeHtml(options.adminEmails.join(', '))} ${options.adminEmails.length === 1 ? 'is an administrator' : 'are administrators'}.</p>
<form method="post" action="/idp/interaction/${uid}/login" autocomplete="on">
<label for="email">Email</label><input id="email" name="email" type="email" required autofocus>
<label for="name">Full name</label><input id="name" name="name" type="text" required>
<button type="submit">Sign in</button></form>`,
      ),
    );
  });
  router.post('/interaction/:uid/login', express.urlencoded({ extended: false }), async (req, res) => {
    await provider.interactionDetails(req, res);
    const body = req.body as { email?: unknown; name?: unknown };
    const email = String(body.email ?? '').trim();
    const name = String(body.name ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || !name) {
      res
        .status(400)
        .type('html')
        .send(page('Sign in to Sift', '<p>Please give an email address and a name.</p>'));
      return;
    }
    const sub = devSubject(email);
    users[sub] = { email, name };
    await writeFile(usersFile, JSON.stringify(users), { mode: 0o600 });
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub } },
      { mergeWithLastSubmission: false },
    );
  });
  router.use(releasingRequestContext(provider.callback()));
  return router;
}

/**
 * Wraps oidc-provider's request handler so that its AsyncLocalStorage (every provider request runs
 * inside it) is disabled again once no provider request is in flight; its next `run()` enables it.
 *
 * Why: on Node 20 an enabled AsyncLocalStorage installs async hooks for the whole process, and they
 * stay installed after the request: from the first sign-in on, every promise Sift made paid for
 * them, and an xlsx ingest creates millions (docs/benchmarks.md, "The embedded engine in the process").
 */
function releasingRequestContext(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void {
  let inFlight = 0;
  return (req, res) => {
    inFlight++;
    res.once('close', () => {
      if (--inFlight === 0) requestContext.disable();
    });
    void handler(req, res);
  };
}
