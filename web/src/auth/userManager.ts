import { ErrorResponse, UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { PublicConfig } from '@sift/shared/contracts';

/**
 * The OIDC client (authorization code + PKCE). Redirect login is the normal path; popup login and
 * silent renew (an iframe with `prompt=none`) come back to the same address, which the app
 * recognises as a callback (see `isSigninCallbackUrl`). Tokens are kept in local storage;
 * refresh tokens are not used (spec section 7).
 */
export function createUserManager(
  config: PublicConfig,
  origin: string = window.location.origin,
): UserManager {
  const { issuer, clientId, audience, scope } = config.oidc;
  return new UserManager({
    authority: issuer,
    client_id: clientId,
    redirect_uri: `${origin}/`,
    popup_redirect_uri: `${origin}/`,
    silent_redirect_uri: `${origin}/`,
    post_logout_redirect_uri: origin,
    response_type: 'code',
    scope,
    extraQueryParams: audienceParams(audience),
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: true,
    loadUserInfo: false,
  });
}

/**
 * The audience as extra authorization parameters: `audience` for Auth0-style providers, and
 * `resource` (RFC 8707) for the others. RFC 8707 requires a resource indicator to be an absolute
 * URI, and conforming providers (oidc-provider, the built-in dev IdP) reject the whole request
 * with `invalid_target` otherwise, so a plain-name audience such as `sift-api` is sent only as
 * `audience` (the provider then applies its default resource).
 */
export function audienceParams(audience: string): Record<string, string> {
  return isAbsoluteUri(audience) ? { audience, resource: audience } : { audience };
}

function isAbsoluteUri(value: string): boolean {
  // An absolute URI has a scheme (RFC 3986 section 4.3); `new URL` also accepts `urn:` forms.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) return false;
  try {
    return !new URL(value).hash;
  } catch {
    return false;
  }
}

/** Whether a URL is the answer of the authorization endpoint (`code` or `error`, plus `state`). */
export function isSigninCallbackUrl(url: string): boolean {
  const params = new URL(url).searchParams;
  return params.has('state') && (params.has('code') || params.has('error'));
}

/** Whether this window is a popup or a silent-renew iframe opened by the app itself. */
export function isAuxiliaryWindow(): boolean {
  try {
    return (!!window.opener && window.opener !== window) || window.parent !== window;
  } catch {
    return true; // a cross-origin opener or parent throws on access
  }
}

/** The OAuth error code of a failed sign-in or token request (`login_required`, `consent_required`, ...). */
export function oidcErrorCode(error: unknown): string | null {
  if (error instanceof ErrorResponse) return error.error;
  if (error && typeof error === 'object' && 'error' in error && typeof error.error === 'string')
    return error.error;
  return null;
}

/** A sentence about a failed sign-in: the provider's description, else its error code. */
export function oidcErrorDescription(error: unknown): string | null {
  if (error instanceof ErrorResponse) return error.error_description ?? error.error;
  return oidcErrorCode(error);
}

/**
 * Spec section 4: a "consent required" error while getting a token silently is tolerated and the
 * flow proceeds.
 */
export function isConsentRequired(error: unknown): boolean {
  return oidcErrorCode(error) === 'consent_required';
}

export type { User };
