import type { ErrorRequestHandler } from 'express';
import multer from 'multer';
import type { ErrorBody } from '@sift/shared/contracts';

/** An error with an HTTP status and a stable code; `message` is shown to the user as `error`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
export class BadRequestError extends HttpError {
  constructor(message: string, code = 'BAD_REQUEST') {
    super(400, code, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Sign in to continue.', code = 'UNAUTHORIZED') {
    super(401, code, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message: string, code = 'FORBIDDEN') {
    super(403, code, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found.', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}
/** A feature this installation is not set up for: 501 with what an administrator can do. */
export class NotImplementedError extends HttpError {
  constructor(message: string, code = 'NOT_IMPLEMENTED') {
    super(501, code, message);
  }
}

/**
 * The client went away before a download ended (it cancelled, or its connection dropped): nothing
 * is wrong on our side, so it is not logged; the response is destroyed like any failed download.
 */
export class ClientGoneError extends Error {
  /** `cause`: the connection's error, when the client went away by a failed write. */
  constructor(cause?: unknown) {
    super('The client closed the download', cause === undefined ? undefined : { cause });
  }
}

/** The one error middleware, mounted last: maps errors to `{ error, code }` with the right status. */
export function errorHandler(log: (message: string, detail?: unknown) => void): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    let status = 500;
    let body: ErrorBody = { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' };
    if (err instanceof HttpError) {
      status = err.status;
      body = { error: err.message, code: err.code };
    } else if (err instanceof multer.MulterError) {
      status = err.code === 'LIMIT_FILE_SIZE' ? 413 : 400;
      body = { error: `Upload rejected: ${err.message}.`, code: err.code };
    } else if (malformedMultipart(err)) {
      status = 400;
      body = {
        error: `The upload could not be read (${(err as Error).message}). Send the files as multipart/form-data.`,
        code: 'MALFORMED_UPLOAD',
      };
    } else if (bodyParserError(err) === 'entity.parse.failed') {
      status = 400;
      body = { error: 'The request body is not valid JSON.', code: 'INVALID_JSON' };
    } else if (diskFull(err)) {
      status = 507;
      body = {
        error:
          'The server has run out of storage space, so nothing was saved. Please try again later, and tell your administrator.',
        code: 'DISK_FULL',
      };
      log('Disk full', (err as Error).message);
    } else if (bodyParserError(err) === 'entity.too.large') {
      status = 413;
      body = { error: 'The request body is too large (at most 1 MB of JSON).', code: 'BODY_TOO_LARGE' };
    } else if (!(err instanceof ClientGoneError)) {
      log('Unhandled error', err);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(body));
    res.status(status).json(body);
  };
}

/**
 * RFC 6750's challenge for a 401: without a token, the bare scheme and realm; with a token that is
 * not valid, `error="invalid_token"` and a description.
 */
function bearerChallenge(body: ErrorBody): string {
  if (body.code === 'UNAUTHORIZED') return 'Bearer realm="sift"';
  const description = body.error.replace(/["\\]/g, '');
  return `Bearer realm="sift", error="invalid_token", error_description="${description}"`;
}

/** The multipart parser's (busboy's) error for a body it cannot read: no boundary, cut short, a bad part header. */
function malformedMultipart(err: unknown): boolean {
  return (
    err instanceof Error &&
    /^(Multipart: Boundary not found|Unexpected end of (form|file)|Malformed part header|Unsupported content type|Malformed content type|Missing Content-Type)/.test(
      err.message,
    )
  );
}

/** The file system's 'no space left on device' (or quota), wherever it was met on the way. */
export function diskFull(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}

/** The body parser's error type (`entity.parse.failed`, `entity.too.large`, …), or null. */
function bodyParserError(err: unknown): string | null {
  const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.startsWith('entity.') ? type : null;
}

export class ConflictError extends HttpError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, code, message);
  }
}
