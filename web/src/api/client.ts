/**
 * The one HTTP client of the SPA: base path `/api`, cookies on every call, a bearer token when one
 * is held, a time-out per call, and typed failures (spec section 8: FETCH_ERROR, TIMEOUT_ERROR,
 * PARSING_ERROR, or an HTTP status with the parsed error body).
 */

export const API_BASE_PATH = '/api';

/** Default time-out of a JSON call. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Spec section 9: upload requests time out after 5 minutes. */
export const UPLOAD_TIMEOUT_MS = 300_000;
/** Exports of many rows are streamed by the server and may take several minutes (spec section 5). */
export const EXPORT_TIMEOUT_MS = 600_000;

export type ApiErrorStatus = number | 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR';

/** A failed call. `status` is the HTTP status, or the kind of failure when no answer was read. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: ApiErrorStatus;
  /** The parsed error body of an HTTP failure (`{ error, code }` from Sift's API), else undefined. */
  readonly data: unknown;

  constructor(status: ApiErrorStatus, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.data = data;
  }

  get isHttpError(): boolean {
    return typeof this.status === 'number';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function stringField(value: unknown, key: string): string | undefined {
  if (value && typeof value === 'object' && key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && field.trim()) return field;
  }
  return undefined;
}

/**
 * What to tell a person about a failed call: the server's `error` field, else its `message` field,
 * else the fallback (spec section 8: "server error field, else message, else ...").
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error)) {
    return stringField(error.data, 'error') ?? stringField(error.data, 'message') ?? fallback;
  }
  return fallback;
}

type TokenGetter = () => string | null;
type UnauthorizedHandler = () => void;

let getToken: TokenGetter = () => null;
let onUnauthorized: UnauthorizedHandler = () => {};

/** Wires the client to the auth state (called once by the auth provider). */
export function configureApiClient(options: { getToken: TokenGetter; onUnauthorized: UnauthorizedHandler }) {
  getToken = options.getToken;
  onUnauthorized = options.onUnauthorized;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  timeoutMs?: number;
  /** Cancels the call (TanStack Query passes one); a cancelled call rejects with the AbortError. */
  signal?: AbortSignal;
}

export interface BlobResponse {
  blob: Blob;
  /** The filename of the `Content-Disposition` header, if any. */
  filename: string | null;
  contentType: string | null;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE_PATH}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, query, timeoutMs = DEFAULT_TIMEOUT_MS, signal } = options;
  const headers = new Headers({ Accept: accept });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), timeoutMs) : undefined;
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      credentials: 'include',
      signal: controller.signal,
    });
  } catch (cause) {
    if (timedOut)
      throw new ApiError('TIMEOUT_ERROR', `Request timed out after ${timeoutMs} ms`, undefined, { cause });
    if (signal?.aborted) throw cause; // cancelled by the caller, not a failure
    throw new ApiError('FETCH_ERROR', 'Network request failed', undefined, { cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }

  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let data: unknown = text || undefined;
    try {
      if (text) data = JSON.parse(text);
    } catch {
      // keep the text: some proxies answer errors in HTML or plain text
    }
    if (response.status === 401 && token) onUnauthorized();
    throw new ApiError(response.status, `Request failed with status ${response.status}`, data);
  }
  return response;
}

/** Calls the API and parses its JSON answer; an empty answer (204) resolves to undefined. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw new ApiError('PARSING_ERROR', 'Could not read the response body', undefined, { cause });
  }
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new ApiError('PARSING_ERROR', 'The response is not valid JSON', text, { cause });
  }
}

/** Calls the API for a file (exports, downloads). */
export async function apiBlobRequest(path: string, options: RequestOptions = {}): Promise<BlobResponse> {
  const response = await send(path, options, '*/*');
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (cause) {
    throw new ApiError('PARSING_ERROR', 'Could not read the downloaded file', undefined, { cause });
  }
  return {
    blob,
    filename: filenameFromContentDisposition(response.headers.get('Content-Disposition')),
    contentType: response.headers.get('Content-Type'),
  };
}

/**
 * The filename of a `Content-Disposition` header (RFC 6266): `filename*=UTF-8''…` wins over
 * `filename="…"`. Path separators are stripped so a header can never name a directory.
 */
export function filenameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = null;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:\\.|[^"\\])*)"|[^;]+)/i.exec(header);
    if (plain) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : (plain[1] ?? '').trim();
  }
  if (!name) return null;
  const base = name.split(/[\\/]/).pop()?.trim();
  return base || null;
}
