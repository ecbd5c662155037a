import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, permissionsFromToken } from './jwt';

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function jwt(payload: unknown): string {
  return `${base64Url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.signature`;
}

describe('decodeJwtPayload', () => {
  it('decodes base64url payloads, including UTF-8 and URL-safe characters', () => {
    // '???' and 'ü' produce '-' / '_' and multi-byte sequences in base64url.
    const payload = { sub: 'user-1', name: 'Jürgen Müller ???>>>', n: 1 };
    expect(decodeJwtPayload(jwt(payload))).toEqual(payload);
  });

  it('returns null for anything that is not a JWT with a JSON object payload', () => {
    expect(decodeJwtPayload(null)).toBeNull();
    expect(decodeJwtPayload('')).toBeNull();
    expect(decodeJwtPayload('opaque-token')).toBeNull();
    expect(decodeJwtPayload('a.%%%.c')).toBeNull();
    expect(decodeJwtPayload(`x.${base64Url('[1,2]')}.y`)).toBeNull();
  });
});

describe('permissionsFromToken', () => {
  it('reads the configured claim', () => {
    const token = jwt({ permissions: ['admin:view', 'files:read'], scope: 'openid' });
    expect(permissionsFromToken(token, 'permissions')).toEqual(['admin:view', 'files:read']);
  });

  it('supports namespaced claim names and drops non-string entries', () => {
    const token = jwt({ 'https://sift.example/permissions': ['admin:view', 3, null] });
    expect(permissionsFromToken(token, 'https://sift.example/permissions')).toEqual(['admin:view']);
  });

  it('accepts a space-separated string and yields [] when the claim is missing', () => {
    expect(permissionsFromToken(jwt({ perms: 'a b  c' }), 'perms')).toEqual(['a', 'b', 'c']);
    expect(permissionsFromToken(jwt({ sub: 'x' }), 'permissions')).toEqual([]);
    expect(permissionsFromToken('not-a-jwt', 'permissions')).toEqual([]);
  });
});
