import type { AccountRow } from '@sift/clickhouse';
import type { RequestHandler, Response } from 'express';
import { ADMIN_PERMISSION, type AccountsService } from '../accounts/accounts.service.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import type { TokenVerifier, VerifiedToken } from './token-verifier.ts';

interface AuthLocals {
  token?: VerifiedToken;
  account?: AccountRow;
}

/** The verified token of an authenticated request (after `authenticate`). */
export function tokenOf(res: Response): VerifiedToken {
  const token = (res.locals as AuthLocals).token;
  if (!token) throw new UnauthorizedError();
  return token;
}

/** The caller's account (after `authenticate`). */
export function accountOf(res: Response): AccountRow {
  const account = (res.locals as AuthLocals).account;
  if (!account) throw new UnauthorizedError();
  return account;
}

/** Requires a valid Bearer access token and loads (or creates) the caller's account: 401 otherwise. */
export function authenticate(verifier: TokenVerifier, accounts: AccountsService): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new UnauthorizedError('Sign in to continue: this request carries no access token.');
    const token = await verifier.verify(match[1]!);
    const locals = res.locals as AuthLocals;
    locals.token = token;
    locals.account = await accounts.resolve(token);
    next();
  };
}

/** Data routes: the account must be active and onboarded (403 otherwise). */
export const requireActiveOnboarded: RequestHandler = (_req, res, next) => {
  const account = accountOf(res);
  if (!account.active) {
    throw new ForbiddenError('Your account is awaiting administrator approval.', 'ACCOUNT_INACTIVE');
  }
  if (!account.onboarded) {
    throw new ForbiddenError('Please complete your profile setup first.', 'ACCOUNT_NOT_ONBOARDED');
  }
  next();
};

/**
 * Whether the caller acts as an administrator: the token holds `admin:view` and the account is
 * active. A deactivated administrator keeps the permission in their token until it expires, and
 * must not keep the admin routes with it.
 */
export function actsAsAdmin(res: Response): boolean {
  return tokenOf(res).permissions.includes(ADMIN_PERMISSION) && accountOf(res).active;
}

/** Admin-only routes: 403 unless the caller acts as an administrator (actsAsAdmin). */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!actsAsAdmin(res)) throw adminRefused(res);
  next();
};

/** Why an admin route is refused: the permission is missing, or the account is deactivated. */
export function adminRefused(res: Response): ForbiddenError {
  return tokenOf(res).permissions.includes(ADMIN_PERMISSION)
    ? new ForbiddenError(
        'Your account is deactivated, so its administrator rights are suspended.',
        'ACCOUNT_INACTIVE',
      )
    : new ForbiddenError('You do not have permission to do this.', 'MISSING_PERMISSION');
}
