/**
 * Reading claims of an access token on the client. The signature is not checked here (the API
 * verifies every token); the SPA only uses the claims to decide what to show.
 */

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a JWT (its second segment, base64url JSON), or null when it is not a JWT. */
export function decodeJwtPayload(token: string | null | undefined): Record<string, unknown> | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length < 2 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The permissions held by an access token: the string entries of the claim named `claim` (an
 * array; a space-separated string is accepted too, as some providers send scopes that way).
 */
export function permissionsFromToken(token: string | null | undefined, claim: string): string[] {
  const value = decodeJwtPayload(token)?.[claim];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string');
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return [];
}
