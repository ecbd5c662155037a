import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { HttpError, UnauthorizedError } from '../errors.ts';

/** Asymmetric algorithms only: no `none`, no HMAC (whose "key" would be public). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Seconds a token's times may be off from this server's clock. */
const CLOCK_TOLERANCE_S = 30;

/**
 * Header `typ` values of an access token, when the issuer sets one: a plain JWT, or RFC 9068's JWT
 * access token; an ID token or logout token (other `typ`s) is refused.
 */
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);

interface Discovery {
  issuer: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

/** A verified access token: its claims and the permissions read from the configured claim. */
export interface VerifiedToken {
  sub: string;
  claims: JWTPayload & Record<string, unknown>;
  permissions: string[];
  /** The raw token, for the userinfo call. */
  token: string;
}

export interface TokenVerifierOptions {
  issuer: string;
  /** Discovery document's URL; unset → `${issuer}/.well-known/openid-configuration`. */
  discoveryUrl?: string;
  audience: string;
  permissionsClaim: string;
  /** How long fetched keys count as fresh, in ms (jose's default: 10 minutes). */
  jwksCacheMaxAgeMs?: number;
  /** How long a fetch of the keys may take, in ms (jose's default: 5 s). */
  jwksTimeoutMs?: number;
}

/**
 * The answer while no key has ever been fetched and the issuer does not answer: not the token's
 * fault (a 401 signs the person out), so 503, to try again.
 */
export class SignInUnavailableError extends HttpError {
  constructor() {
    super(
      503,
      'SIGN_IN_UNAVAILABLE',
      'Sign-in cannot be checked right now: the identity provider does not answer. Please try again in a moment.',
    );
  }
}

/** Errors that say a token names no key, or several: the token's fault, whatever the fetch did. */
const KEY_MATCH_ERRORS = [joseErrors.JWKSNoMatchingKey, joseErrors.JWKSMultipleMatchingKeys];

/**
 * Verifies OIDC access tokens (JWT) against any standards-compliant issuer: discovery at
 * `${issuer}/.well-known/openid-configuration` (or the configured discovery URL, whose `issuer`,
 * `jwks_uri` and `userinfo_endpoint` then name what is checked and fetched), keys from its `jwks_uri` (cached and refreshed by
 * jose), `iss`, `aud` and an asymmetric-algorithm allowlist checked, `exp` required, `iat` not in
 * the future, the header's `typ` (when set) that of an access token, 30 s clock tolerance.
 */
export class TokenVerifier {
  #discovery: Promise<Discovery> | null = null;
  #jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(private readonly options: TokenVerifierOptions) {}

  /** The issuer's discovery document (fetched once; a failed fetch is retried on the next call). */
  discovery(): Promise<Discovery> {
    this.#discovery ??= (async () => {
      const url = this.options.discoveryUrl ?? `${this.options.issuer}/.well-known/openid-configuration`;
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`OIDC discovery failed: HTTP ${res.status}`);
      return (await res.json()) as Discovery;
    })().catch((e: unknown) => {
      this.#discovery = null;
      throw e;
    });
    return this.#discovery;
  }

  /**
   * The key of a token's header: from jose's remote key set, fetched again once stale (or for an
   * unknown key id, after a cooldown); when that fetch fails (the issuer slow or unreachable, or
   * this process too busy to hear it in time), from the keys it last fetched. A fetch at the
   * wrong moment then no longer refuses valid tokens with 401, which signed people out while one
   * account's file held the process. A key that is still unknown stays the token's fault.
   */
  #key(jwksUri: string): JWTVerifyGetKey {
    const remote = (this.#jwks ??= createRemoteJWKSet(new URL(jwksUri), {
      ...(this.options.jwksCacheMaxAgeMs !== undefined
        ? { cacheMaxAge: this.options.jwksCacheMaxAgeMs }
        : {}),
      ...(this.options.jwksTimeoutMs !== undefined ? { timeoutDuration: this.options.jwksTimeoutMs } : {}),
    }));
    return async (header, token) => {
      try {
        return await remote(header, token);
      } catch (e) {
        if (KEY_MATCH_ERRORS.some((kind) => e instanceof kind)) throw e;
        const last = remote.jwks();
        if (!last) throw new SignInUnavailableError();
        return createLocalJWKSet(last)(header, token);
      }
    };
  }

  /**
   * Verifies `Authorization: Bearer …`'s token; throws UnauthorizedError (401) when it is not
   * valid, SignInUnavailableError (503) when its key cannot be had from the issuer.
   */
  async verify(token: string): Promise<VerifiedToken> {
    const meta = await this.discovery();
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.#key(meta.jwks_uri), {
        issuer: meta.issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      });
      if (!payload.sub) throw new UnauthorizedError('The access token has no subject.', 'INVALID_TOKEN');
      if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S) {
        throw new UnauthorizedError('The access token is not valid.', 'INVALID_TOKEN');
      }
      if (protectedHeader.typ !== undefined && !ACCESS_TOKEN_TYPES.has(protectedHeader.typ.toLowerCase())) {
        throw new UnauthorizedError('The token is not an access token.', 'INVALID_TOKEN');
      }
      const raw = payload[this.options.permissionsClaim];
      const permissions = Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string') : [];
      return { sub: payload.sub, claims: payload, permissions, token };
    } catch (e) {
      if (e instanceof UnauthorizedError || e instanceof SignInUnavailableError) throw e;
      if (e instanceof joseErrors.JOSEError) {
        const expired = e instanceof joseErrors.JWTExpired;
        throw new UnauthorizedError(
          expired ? 'Your session has expired. Please sign in again.' : 'The access token is not valid.',
          expired ? 'TOKEN_EXPIRED' : 'INVALID_TOKEN',
        );
      }
      throw e;
    }
  }

  /** Claims from the issuer's userinfo endpoint for this token, or {} when it has none or fails. */
  async userinfo(token: string): Promise<Record<string, unknown>> {
    const meta = await this.discovery();
    if (!meta.userinfo_endpoint) return {};
    const res = await fetch(meta.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : {};
  }
}
