import { describe, expect, it } from 'vitest';
import { audienceParams, isSigninCallbackUrl } from './userManager';

describe('audienceParams', () => {
  it('sends an absolute-URI audience as both audience and resource', () => {
    expect(audienceParams('https://api.sift.example')).toEqual({
      audience: 'https://api.sift.example',
      resource: 'https://api.sift.example',
    });
    expect(audienceParams('urn:sift:api')).toEqual({ audience: 'urn:sift:api', resource: 'urn:sift:api' });
  });

  it('sends a plain-name audience only as audience (RFC 8707 resources must be absolute URIs)', () => {
    expect(audienceParams('sift-api')).toEqual({ audience: 'sift-api' });
    expect(audienceParams('https://api.example/#frag')).toEqual({ audience: 'https://api.example/#frag' });
  });
});

describe('isSigninCallbackUrl', () => {
  it('recognises code or error answers that carry a state', () => {
    expect(isSigninCallbackUrl('https://app.example/?code=abc&state=xyz')).toBe(true);
    expect(isSigninCallbackUrl('https://app.example/?error=login_required&state=xyz')).toBe(true);
    expect(isSigninCallbackUrl('https://app.example/?code=abc')).toBe(false);
    expect(isSigninCallbackUrl('https://app.example/search?q=1')).toBe(false);
  });
});
