import { Router } from 'express';
import { accountOf } from '../auth/middleware.ts';
import {
  createUploadSessionSchema,
  type UploadMultipleResponse,
  type UploadPacing,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import type { UploadIntake } from './upload-intake.ts';
import { MAX_FILES_PER_REQUEST, requestUploads, uploadHandlers, uploadMiddlewares } from './files.routes.ts';

/** Files per request that keep a 2-core server responsive while earlier files ingest (spec: groups of 2). */
export const OPTIMAL_BATCH_SIZE = 2;

/**
 * `/api/parallel/*`: the batch and session upload endpoints. They share one code path with
 * `/api/file/upload*` (UploadIntake.accept); a session created here collects batches until finalized.
 */
export function uploadsRoutes(intake: UploadIntake, maxUploadBytes: number): Router {
  const router = Router();
  const upload = uploadMiddlewares(intake.arrivals, maxUploadBytes);

  const handle = uploadHandlers(intake);
  router.post('/upload-single', upload.single('file'), handle.one);
  router.post('/upload', upload.array('files'), handle.many);
  router.post('/upload-batch', upload.array('files'), handle.many);

  router.post('/upload-session', async (req, res) => {
    const body = parseBody(createUploadSessionSchema, req.body);
    const session = await intake.createSession(accountOf(res).id, body.sessionName, body.expectedFiles);
    res.status(201).json({ session, files: [] });
  });
  router.post('/upload-batch/:sessionId', upload.array('files'), async (req, res) => {
    const uploads = requestUploads(req);
    const accepted = await intake.addBatch(accountOf(res).id, String(req.params.sessionId), uploads);
    res.status(201).json(accepted satisfies UploadMultipleResponse);
  });
  router.post('/upload-finalize/:sessionId', async (req, res) => {
    res.json(await intake.finalize(accountOf(res).id, String(req.params.sessionId)));
  });
  router.get('/optimal-batch-size', (_req, res) => {
    res.json({
      batchSize: OPTIMAL_BATCH_SIZE,
      maxFilesPerRequest: MAX_FILES_PER_REQUEST,
      maxFileSizeBytes: maxUploadBytes,
    } satisfies UploadPacing);
  });
  return router;
}
