import { Router, type RequestHandler } from 'express';
import { onboardRequestSchema } from '../contracts.ts';
import { accountOf, requirePermissions } from '../auth/middleware.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { ADMIN_PERMISSION, toAccount, type AccountsService } from './accounts.service.ts';
import { parseBody } from '../validation.ts';

/** `/api/accounts/*`: the caller's profile, profile setup and (admin) activation. */
export function accountsRoutes(accounts: AccountsService): Router {
  const router = Router();
  const me: RequestHandler = (_req, res) => {
    res.json(toAccount(accountOf(res)));
  };
  router.get('/me', me);
  // The SPA's profile fetch after sign-in is a mutation (spec section 7): same answer.
  router.post('/me', me);
  router.post('/onboard', async (req, res) => {
    const body = parseBody(onboardRequestSchema, req.body);
    res.json(toAccount(await accounts.onboard(accountOf(res), body.firstName, body.lastName)));
  });
  router.put('/:id/activate', requirePermissions(ADMIN_PERMISSION), async (req, res) => {
    const id = String(req.params.id);
    if (!id) throw new BadRequestError('An account id is required.');
    const account = await accounts.setActive(id, true);
    if (!account) throw new NotFoundError('No account with this id.');
    res.json(toAccount(account));
  });
  return router;
}
