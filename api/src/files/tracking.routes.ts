import { Router } from 'express';
import { z } from 'zod';
import { accountOf } from '../auth/middleware.ts';
import type { TrackingCleanupResponse } from '@sift/shared/contracts';
import { NotFoundError } from '../errors.ts';
import { parseBody } from '../validation.ts';
import type { UploadIntake } from './upload-intake.ts';

const cleanupQuery = z.object({
  daysOld: z.coerce.number({ error: 'daysOld must be a number of days.' }).int().min(0).default(7),
});

/** `/api/upload-tracking/*`: the caller's upload sessions and the live state of their files. */
export function trackingRoutes(intake: UploadIntake): Router {
  const router = Router();
  const summaryOr404 = async (ownerId: string, id: string) => {
    const summary = await intake.session(ownerId, id);
    if (!summary) throw new NotFoundError('Upload session not found.', 'SESSION_NOT_FOUND');
    return summary;
  };

  router.get('/sessions', async (_req, res) => {
    res.json((await intake.sessions(accountOf(res).id)).map((s) => s.session));
  });
  router.get('/sessions/active', async (_req, res) => {
    res.json(
      (await intake.sessions(accountOf(res).id)).filter((s) => s.session.isActive).map((s) => s.session),
    );
  });
  // Summaries (session and files) of the caller's active sessions: what the Upload screen polls.
  router.get('/sessions/summary', async (_req, res) => {
    res.json((await intake.sessions(accountOf(res).id)).filter((s) => s.session.isActive));
  });
  router.get('/sessions/:id', async (req, res) => {
    res.json((await summaryOr404(accountOf(res).id, String(req.params.id))).session);
  });
  router.get('/sessions/:id/files', async (req, res) => {
    res.json((await summaryOr404(accountOf(res).id, String(req.params.id))).files);
  });
  router.get('/sessions/:id/summary', async (req, res) => {
    res.json(await summaryOr404(accountOf(res).id, String(req.params.id)));
  });
  router.delete('/cleanup', async (req, res) => {
    const { daysOld } = parseBody(cleanupQuery, req.query);
    const sessionsRemoved = await intake.cleanup(accountOf(res).id, daysOld);
    res.json({ sessionsRemoved } satisfies TrackingCleanupResponse);
  });
  return router;
}
