import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { loopbackAliasRedirect } from './loopback-alias.ts';

/** Where the middleware sends a request: a redirect target, or 'next'. */
function route(publicUrl: string, host: string, method = 'GET', url = '/files?x=1'): string {
  let outcome = 'none';
  const req = { method, headers: { host }, originalUrl: url } as unknown as Request;
  const res = {
    redirect: (status: number, to: string) => (outcome = `${status} ${to}`),
  } as unknown as Response;
  loopbackAliasRedirect(publicUrl)(req, res, () => (outcome = 'next'));
  return outcome;
}

describe('loopbackAliasRedirect', () => {
  it('sends a loopback alias of the public origin there, path and query kept', () => {
    expect(route('http://localhost:8080', '127.0.0.1:8080')).toBe('307 http://localhost:8080/files?x=1');
    expect(route('http://localhost:8080', '[::1]:8080')).toBe('307 http://localhost:8080/files?x=1');
    expect(route('http://127.0.0.1:8080', 'localhost:8080', 'HEAD')).toBe(
      '307 http://127.0.0.1:8080/files?x=1',
    );
  });

  it('lets everything else through', () => {
    expect(route('http://localhost:8080', 'localhost:8080')).toBe('next');
    expect(route('http://localhost:8080', '127.0.0.1:9090')).toBe('next');
    expect(route('http://localhost:8080', 'sift.example.org:8080')).toBe('next');
    expect(route('http://localhost:8080', '127.0.0.1:8080', 'POST')).toBe('next');
    expect(route('https://sift.example.org', '127.0.0.1:443')).toBe('next');
    expect(route('http://localhost:8080', '')).toBe('next');
  });
});
