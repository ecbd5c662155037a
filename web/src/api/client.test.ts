import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiBlobRequest,
  apiRequest,
  configureApiClient,
  errorMessage,
  filenameFromContentDisposition,
} from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  configureApiClient({ getToken: () => null, onUnauthorized: () => {} });
});

function stubFetch(impl: (url: string, init: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(impl);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiRequest', () => {
  it('calls /api with cookies, JSON body and the bearer token when one is held', async () => {
    configureApiClient({ getToken: () => 'tok', onUnauthorized: () => {} });
    const fetchMock = stubFetch(async () => Response.json({ ok: true }));
    await expect(apiRequest('/file/search', { method: 'POST', body: { page: 0 } })).resolves.toEqual({
      ok: true,
    });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/file/search');
    expect(init.credentials).toBe('include');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"page":0}');
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization header without a token, and FormData as is', async () => {
    const fetchMock = stubFetch(async () => new Response(null, { status: 204 }));
    const form = new FormData();
    form.append('files', new Blob(['a,b']), 'a.csv');
    await expect(
      apiRequest('/file/upload-multiple', { method: 'POST', body: form }),
    ).resolves.toBeUndefined();
    const init = fetchMock.mock.calls[0]![1];
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
    expect(new Headers(init.headers).has('Content-Type')).toBe(false);
    expect(init.body).toBe(form);
  });

  it('reports HTTP failures with status and the parsed error body; a 401 with a token signs out', async () => {
    const onUnauthorized = vi.fn();
    configureApiClient({ getToken: () => 'tok', onUnauthorized });
    stubFetch(async () =>
      Response.json({ error: 'Your session has expired.', code: 'UNAUTHORIZED' }, { status: 401 }),
    );
    const error = await rejection(apiRequest('/accounts/me'));
    expect(error.status).toBe(401);
    expect(error.data).toEqual({ error: 'Your session has expired.', code: 'UNAUTHORIZED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(errorMessage(error, 'fallback')).toBe('Your session has expired.');
  });

  it('reports FETCH_ERROR when the network fails', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await rejection(apiRequest('/file/files'));
    expect(error.status).toBe('FETCH_ERROR');
    expect(errorMessage(error, 'Please try again.')).toBe('Please try again.');
  });

  it('reports PARSING_ERROR for a body that is not JSON', async () => {
    stubFetch(async () => new Response('<html>oops</html>', { status: 200 }));
    expect((await rejection(apiRequest('/file/files'))).status).toBe('PARSING_ERROR');
  });

  it('reports TIMEOUT_ERROR when the time-out passes', async () => {
    stubFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const error = await rejection(apiRequest('/file/files', { timeoutMs: 20 }));
    expect(error.status).toBe('TIMEOUT_ERROR');
  });

  it('lets a cancellation by the caller through as the abort, not as a failure', async () => {
    stubFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = apiRequest('/file/files', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('apiBlobRequest', () => {
  it('returns the file and its Content-Disposition filename', async () => {
    stubFetch(
      async () =>
        new Response('a,b\n1,2\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': `attachment; filename="results.csv"; filename*=UTF-8''r%C3%A9sultats.csv`,
          },
        }),
    );
    const result = await apiBlobRequest('/file/export', { method: 'POST', body: {} });
    expect(result.filename).toBe('résultats.csv');
    expect(result.contentType).toBe('text/csv');
    expect(await result.blob.text()).toBe('a,b\n1,2\n');
  });
});

describe('errorMessage', () => {
  it('uses error, else message, else the fallback', () => {
    expect(errorMessage(new ApiError(400, 'x', { error: 'Bad file', message: 'm' }), 'f')).toBe('Bad file');
    expect(errorMessage(new ApiError(500, 'x', { message: 'Server said' }), 'f')).toBe('Server said');
    expect(errorMessage(new ApiError(502, 'x', '<html>'), 'f')).toBe('f');
    expect(errorMessage(new Error('boom'), 'f')).toBe('f');
  });
});

describe('filenameFromContentDisposition', () => {
  it('reads quoted, unquoted and RFC 5987 names and strips paths', () => {
    expect(filenameFromContentDisposition('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(filenameFromContentDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(filenameFromContentDisposition(`attachment; filename*=UTF-8''%E2%82%AC.csv`)).toBe('€.csv');
    expect(filenameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameFromContentDisposition('attachment')).toBeNull();
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
});
