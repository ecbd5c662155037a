import type { AccountRow } from '@sift/clickhouse';
import type { RequestHandler, Response } from 'express';
import type { AccountsService } from '../accounts/accounts.service.ts';
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

/** Requires every listed permission in the token (403 otherwise). */
export function requirePermissions(...permissions: string[]): RequestHandler {
  return (_req, res, next) => {
    const held = tokenOf(res).permissions;
    if (!permissions.every((p) => held.includes(p))) {
      throw new ForbiddenError('You do not have permission to do this.', 'MISSING_PERMISSION');
    }
    next();
  };
}
