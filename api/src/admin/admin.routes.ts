import { Router, type Request, type RequestHandler } from 'express';
import { accountOf, actsAsAdmin, adminRefused } from '../auth/middleware.ts';
import {
  adminAccountListSchema,
  adminAccountSearchSchema,
  adminAccountUpdateSchema,
  type AccountDeletion,
  type AdminQueueView,
  type AccountStats,
  type Confirmation,
  confirmationRequestSchema,
  CONFIRMED_ACTIONS,
  type ConfirmedAction,
  type DeletionResult,
  MASS_DELETE_CONFIRMATION,
  personDecisionRequestSchema,
  type PersonDecisionResponse,
  personDecisionUndoSchema,
  restoreRequestSchema,
  type RestoreResult,
  sameNamePairsRequestSchema,
  type SameNamePairsResponse,
  type Snapshot,
  type SystemStats,
} from '@sift/shared/contracts';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.ts';
import { parseBody, queryText } from '../validation.ts';
import type { AdminService } from './admin.service.ts';
import type { Confirmations } from './confirmations.ts';
import type { Maintenance, MaintenanceParts } from './maintenance.ts';
import type { Snapshots } from './snapshots.ts';
import type { PeopleService } from '../search/people.service.ts';
import { z } from 'zod';

/** `GET /admin/queue?limit=`: jobs listed of each state. */
const queueViewSchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

const pageSchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
});

/** The maintenance calls: each confirmed with the typed phrase first. */
const MAINTENANCE_ACTIONS: readonly ConfirmedAction[] = CONFIRMED_ACTIONS.filter(
  (a) => a !== 'restore' && a !== 'delete-account',
);

/**
 * Lets a destructive call through only with a confirmation of it (see Confirmations.spend: the
 * token in body `confirmation` or header `X-Confirm`, for this administrator, `action` and the
 * target `targetOf` reads from the request, the files unchanged); 409 otherwise, before anything
 * is changed.
 */
function confirmed(
  confirmations: Confirmations,
  admin: AdminService,
  action: ConfirmedAction,
  targetOf: (req: Request) => string = () => '',
): RequestHandler {
  return async (req, res, next) => {
    const body = (req.body ?? {}) as { confirmation?: unknown };
    const token = typeof body.confirmation === 'string' ? body.confirmation : (req.get('x-confirm') ?? '');
    const target = targetOf(req);
    await confirmations.spend(token, accountOf(res).id, action, target, () =>
      admin.fileSelection(action === 'delete-account' ? target : undefined),
    );
    next();
  };
}

/**
 * `/api/admin/*`, all behind `admin:view`: a caller without it gets 403, and the attempt is logged
 * and written to the audit log. Changes are audited too (`GET /api/admin/audit`).
 */
export function adminRoutes(
  admin: AdminService,
  maintenance: Maintenance,
  snapshots: Snapshots,
  confirmations: Confirmations,
  log: (message: string, detail?: unknown) => void,
  people: PeopleService,
): Router {
  const router = Router();
  const confirm = (action: ConfirmedAction, targetOf?: (req: Request) => string) =>
    confirmed(confirmations, admin, action, targetOf);
  router.use(async (req, res, next) => {
    if (actsAsAdmin(res)) return next();
    const account = accountOf(res);
    log('Admin access denied', { accountId: account.id, method: req.method, path: req.originalUrl });
    await admin.audit(account, 'access.denied', req.originalUrl, { method: req.method });
    throw adminRefused(res);
  });

  router.get('/accounts/list', async (req, res) => {
    res.json(await admin.listAccounts(parseBody(adminAccountListSchema, req.query)));
  });
  router.get('/accounts/search', async (req, res) => {
    res.json(await admin.searchAccounts(parseBody(adminAccountSearchSchema, req.query)));
  });
  router.put('/accounts/:accountId', async (req, res) => {
    const patch = parseBody(adminAccountUpdateSchema, req.body);
    res.json(await admin.updateAccount(accountOf(res), String(req.params.accountId), patch));
  });
  // A confirmation of one destructive call (see Confirmation).
  router.post('/confirmations', async (req, res) => {
    const { action, target = '', phrase } = parseBody(confirmationRequestSchema, req.body);
    if (MAINTENANCE_ACTIONS.includes(action) && phrase !== MASS_DELETE_CONFIRMATION)
      throw new ConflictError(
        `Mass deletion cancelled - confirmation text did not match (type ${MASS_DELETE_CONFIRMATION}).`,
        'CONFIRMATION_TEXT',
      );
    if ((action === 'restore' || action === 'delete-account') && !target)
      throw new BadRequestError(
        `Say what to ${action === 'restore' ? 'restore' : 'delete'}: target is required.`,
        'TARGET_REQUIRED',
      );
    if (action === 'delete-account') {
      if (target === accountOf(res).id)
        throw new ConflictError('You cannot delete your own account.', 'SELF_DELETE');
      await admin.accountStats(target); // 404 for no such account
    }
    const selection = await admin.fileSelection(action === 'delete-account' ? target : undefined);
    const confirmation = await confirmations.issue(accountOf(res).id, action, target, selection);
    res.status(201).json(confirmation satisfies Confirmation);
  });
  router.delete(
    '/accounts/:id',
    confirm('delete-account', (req) => String(req.params.id)),
    async (req, res) => {
      res.json((await admin.deleteAccount(accountOf(res), String(req.params.id))) satisfies AccountDeletion);
    },
  );
  // Reviewing an account's people offered as possibly the same (issue 35): the owner's choices,
  // made by an administrator (audited).
  router.get('/accounts/:accountId/people/same-name', async (req, res) => {
    const accountId = (await admin.account(String(req.params.accountId))).id;
    const { page, size } = parseBody(sameNamePairsRequestSchema, req.query);
    res.json((await people.sameNamePairs(accountId, page, size)) satisfies SameNamePairsResponse);
  });
  router.post('/accounts/:accountId/people/decisions', async (req, res) => {
    const accountId = (await admin.account(String(req.params.accountId))).id;
    const request = parseBody(personDecisionRequestSchema, req.body);
    const actor = accountOf(res);
    const answer = await people.decide(accountId, actor.email, request);
    await admin.audit(actor, `people.${request.decision}`, accountId, { ...request, ...answer });
    res.json(answer satisfies PersonDecisionResponse);
  });
  router.post('/accounts/:accountId/people/decisions/undo', async (req, res) => {
    const accountId = (await admin.account(String(req.params.accountId))).id;
    const keys = parseBody(personDecisionUndoSchema, req.body);
    const actor = accountOf(res);
    await people.undo(accountId, actor.email, keys);
    await admin.audit(actor, 'people.undo', accountId, { ...keys });
    res.status(204).end();
  });
  // The ingest queue now (counts, jobs, the oldest wait), for the System Admin screen's queue view.
  router.get('/queue', async (req, res) => {
    const { limit } = parseBody(queueViewSchema, req.query);
    res.json((await admin.queueView(limit)) satisfies AdminQueueView);
  });
  router.get('/stats', async (req, res) => {
    const accountId = queryText(req.query, 'accountId') ?? '';
    if (!accountId)
      throw new BadRequestError('Say which account: accountId is required.', 'ACCOUNT_ID_REQUIRED');
    res.json((await admin.accountStats(accountId)) satisfies AccountStats);
  });
  router.get('/system/stats', async (_req, res) => {
    res.json((await admin.systemStats()) satisfies SystemStats);
  });
  // Snapshots of the whole installation, and restoring one (one at a time, else 409).
  router.get('/restore/snapshots', async (_req, res) => {
    res.json((await snapshots.list()) satisfies Snapshot[]);
  });
  router.post('/restore/snapshots', async (_req, res) => {
    const snapshot = await snapshots.create(accountOf(res).email);
    await admin.audit(accountOf(res), 'snapshot.create', snapshot.id, { ...snapshot });
    res.status(201).json(snapshot satisfies Snapshot);
  });
  router.delete('/restore/snapshots/:id', async (req, res) => {
    await snapshots.remove(String(req.params.id));
    await admin.audit(accountOf(res), 'snapshot.delete', String(req.params.id), {});
    res.status(204).end();
  });
  router.post(
    '/restore/execute',
    confirm('restore', (req) => restoreTarget(req)),
    async (req, res) => {
      const { snapshotId } = parseBody(restoreRequestSchema, req.body);
      const result = await snapshots.restore(snapshotId);
      await admin.audit(accountOf(res), 'snapshot.restore', snapshotId, { ...result });
      res.json(result satisfies RestoreResult);
    },
  );
  // The contacts of every account's people (one row per person), as CSV downloads.
  router.get('/export/contacts/:kind', async (req, res) => {
    const kind = req.params.kind;
    if (kind !== 'emails' && kind !== 'full')
      throw new NotFoundError('There is no such contact export: use emails or full.', 'NOT_FOUND');
    res.attachment(`contacts-${kind}-${new Date().toISOString().slice(0, 10)}.csv`);
    res.type('text/csv; charset=utf-8');
    const written = await admin.writeContacts(kind, res);
    await admin.audit(accountOf(res), 'export.contacts', kind, { contacts: written });
  });
  // Maintenance (installation-wide), each answering the deletion-result fields.
  const maintain =
    (action: string, parts: MaintenanceParts): RequestHandler =>
    async (_req, res) => {
      const result = await maintenance.run(parts);
      await admin.audit(accountOf(res), action, '', { ...result });
      res.json(result satisfies DeletionResult);
    };
  router.delete(
    '/mass-delete-all-files',
    confirm('mass-delete-all-files'),
    maintain('maintenance.mass-delete-all-files', { files: true, exports: true, tracking: true }),
  );
  router.delete(
    '/delete-files',
    confirm('delete-files'),
    maintain('maintenance.delete-files', { files: true }),
  );
  router.delete(
    '/delete-file-data',
    confirm('delete-file-data'),
    maintain('maintenance.delete-file-data', { rows: true }),
  );
  router.delete(
    '/delete-export-history',
    confirm('delete-export-history'),
    maintain('maintenance.delete-export-history', { exports: true }),
  );
  router.delete(
    '/clear-clickhouse',
    confirm('clear-clickhouse'),
    maintain('maintenance.clear-clickhouse', { rows: true }),
  );
  router.delete(
    '/clear-upload-tracking',
    confirm('clear-upload-tracking'),
    maintain('maintenance.clear-upload-tracking', { tracking: true }),
  );
  router.post('/reindex-clickhouse', maintain('maintenance.reindex-clickhouse', { reindex: true }));

  router.get('/audit', async (req, res) => {
    const { page, size } = parseBody(pageSchema, req.query);
    res.json(await admin.auditLog(page, size));
  });
  return router;
}

/** The snapshot a restore names (its body's `snapshotId`), '' when it names none. */
function restoreTarget(req: Request): string {
  const id = (req.body as { snapshotId?: unknown } | undefined)?.snapshotId;
  return typeof id === 'string' ? id : '';
}
