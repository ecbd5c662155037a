import { Router, type RequestHandler, type Response } from 'express';
import type { AccountRow } from '@sift/clickhouse';
import {
  onboardRequestSchema,
  updateAccountQuerySchema,
  type Account,
  type AccountExists,
  type AccountOnboarded,
} from '@sift/shared/contracts';
import { accountOf, actsAsAdmin, requireAdmin, tokenOf } from '../auth/middleware.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../errors.ts';
import { ADMIN_PERMISSION, toAccount, type AccountsService } from './accounts.service.ts';
import { parseBody } from '../validation.ts';

/** Whether the caller acts as an administrator (`admin:view`, account active). */
const isAdmin = (res: Response) => actsAsAdmin(res);

/** The account, or 404. */
function found(account: AccountRow | null): AccountRow {
  if (!account) throw new NotFoundError('No account with this id.', 'ACCOUNT_NOT_FOUND');
  return account;
}

/**
 * `/api/accounts/*` (spec section 7, Accounts). Any signed-in caller (active or not, so the
 * Awaiting Approval and profile setup screens work) reads and changes their own account; another
 * account needs `admin:view` (403 otherwise).
 */
export function accountsRoutes(accounts: AccountsService): Router {
  const router = Router();
  const me: RequestHandler = (_req, res) => {
    res.json(toAccount(accountOf(res)) satisfies Account);
  };
  router.get('/me', me);
  // The SPA's profile fetch after sign-in is a mutation (spec section 7): same answer. Registering
  // is the same too: the account is created from the token on the first request.
  router.post('/me', me);
  router.post('/register', me);
  router.post('/onboard', async (req, res) => {
    const body = parseBody(onboardRequestSchema, req.body);
    res.json(toAccount(await accounts.onboard(accountOf(res), body.firstName, body.lastName)));
  });
  router.put('/update', async (req, res) => {
    const names = parseBody(updateAccountQuerySchema, req.query);
    res.json(toAccount(await accounts.update(accountOf(res), names)));
  });
  router.put('/deactivate', async (_req, res) => {
    // An administrator who deactivated themselves could lock every administrator out.
    if (tokenOf(res).permissions.includes(ADMIN_PERMISSION))
      throw new ConflictError(
        'You cannot deactivate your own account: ask another administrator.',
        'SELF_DEACTIVATE',
      );
    res.json(toAccount((await accounts.setActive(accountOf(res).id, false))!));
  });
  router.get('/active', requireAdmin, async (_req, res) => {
    res.json((await accounts.list()).filter((a) => a.active).map(toAccount) satisfies Account[]);
  });
  router.get('/email/:email', async (req, res) => {
    const email = String(req.params.email);
    if (accountOf(res).email.toLowerCase() === email.toLowerCase()) {
      res.json(toAccount(accountOf(res)));
      return;
    }
    if (!isAdmin(res)) throw new ForbiddenError('You can only view your own account.', 'NOT_YOUR_ACCOUNT');
    res.json(toAccount(found(await accounts.findByEmail(email))));
  });
  router.get('/exists/:value', async (req, res) => {
    const value = String(req.params.value);
    const me = accountOf(res);
    if (value !== me.id && value.toLowerCase() !== me.email.toLowerCase() && !isAdmin(res)) {
      throw new ForbiddenError('You can only look up your own account.', 'NOT_YOUR_ACCOUNT');
    }
    const exists = (await accounts.get(value)) !== null || (await accounts.findByEmail(value)) !== null;
    res.json({ exists } satisfies AccountExists);
  });
  router.get('/:id', async (req, res) => {
    const id = String(req.params.id);
    res.json(toAccount(found(id === accountOf(res).id ? accountOf(res) : await adminGet(res, id))));
  });
  router.get('/:id/onboarded', async (req, res) => {
    const id = String(req.params.id);
    const account = found(id === accountOf(res).id ? accountOf(res) : await adminGet(res, id));
    res.json({ onboarded: account.onboarded } satisfies AccountOnboarded);
  });
  router.put('/:id/activate', requireAdmin, async (req, res) => {
    const id = String(req.params.id);
    if (!id) throw new BadRequestError('An account id is required.');
    const account = await accounts.setActive(id, true);
    if (!account) throw new NotFoundError('No account with this id.', 'ACCOUNT_NOT_FOUND');
    res.json(toAccount(account));
  });

  /** Another account, looked up only for an administrator (403 for anyone else, before any lookup). */
  async function adminGet(res: Response, id: string): Promise<AccountRow | null> {
    if (!isAdmin(res)) throw new ForbiddenError('You can only view your own account.', 'NOT_YOUR_ACCOUNT');
    return accounts.get(id);
  }
  return router;
}
