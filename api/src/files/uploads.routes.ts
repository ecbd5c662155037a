import { Router } from 'express';
import type { UploadTracker } from '@sift/shared/upload-tracking';
import { accountOf } from '../auth/middleware.ts';
import {
  createUploadSessionSchema,
  type UploadMultipleResponse,
  type UploadPacing,
} from '@sift/shared/contracts';
import { HttpError, NotFoundError } from '../errors.ts';
import { parseBody } from '../validation.ts';
import type { FilesService } from './files.service.ts';
import { MAX_FILES_PER_REQUEST, requestUploads, uploadHandlers, uploadMiddlewares } from './files.routes.ts';

/** Files per request that keep a 2-core server responsive while earlier files ingest (spec: groups of 2). */
export const OPTIMAL_BATCH_SIZE = 2;

/**
 * `/api/parallel/*`: the batch and session upload endpoints. They share one code path with
 * `/api/file/upload*` (FilesService.accept); a session created here collects batches until finalized.
 */
export function uploadsRoutes(
  files: FilesService,
  tracker: UploadTracker,
  blobDir: string,
  maxUploadBytes: number,
): Router {
  const router = Router();
  const upload = uploadMiddlewares(blobDir, maxUploadBytes);

  const handle = uploadHandlers(files);
  router.post('/upload-single', upload.single('file'), handle.one);
  router.post('/upload', upload.array('files'), handle.many);
  router.post('/upload-batch', upload.array('files'), handle.many);

  router.post('/upload-session', async (req, res) => {
    const body = parseBody(createUploadSessionSchema, req.body);
    const session = await tracker.createSession(
      accountOf(res).id,
      body.sessionName || 'Upload session',
      false,
      body.expectedFiles,
    );
    res.status(201).json({ session, files: [] });
  });
  router.post('/upload-batch/:sessionId', upload.array('files'), async (req, res) => {
    const ownerId = accountOf(res).id;
    const uploads = requestUploads(req);
    const summary = await tracker.summary(ownerId, String(req.params.sessionId));
    if (!summary || summary.session.finalized) {
      await files.discard(uploads);
      if (!summary) throw new NotFoundError('Upload session not found.', 'SESSION_NOT_FOUND');
      throw new HttpError(
        409,
        'SESSION_FINALIZED',
        'This upload session is finished: start a new one to add files.',
      );
    }
    const accepted = await files.accept(ownerId, uploads, { sessionId: summary.session.id });
    res.status(201).json(accepted satisfies UploadMultipleResponse);
  });
  router.post('/upload-finalize/:sessionId', async (req, res) => {
    const summary = await tracker.finalize(accountOf(res).id, String(req.params.sessionId));
    if (!summary) throw new NotFoundError('Upload session not found.', 'SESSION_NOT_FOUND');
    res.json(summary);
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
