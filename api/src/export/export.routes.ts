import { Router, type Response } from 'express';
import { accountOf } from '../auth/middleware.ts';
import {
  exportRequestSchema,
  type ExportHistoryEntry,
  type PreprocessingPreview,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import type { ExportDownload, ExportHistory } from './export-history.ts';

/** Announces a download and sends its body; a failure part-way destroys the response (see ExportDownload). */
async function send<T>(res: Response, download: ExportDownload<T>, size?: number): Promise<void> {
  res.attachment(download.filename);
  res.type(download.contentType);
  if (size !== undefined) res.setHeader('content-length', String(size));
  await download.sendTo(res);
  res.end();
}

/** `/api/file/export`, its preview and the export history (`/api/file/exports…`). */
export function exportRoutes(history: ExportHistory): Router {
  const router = Router();
  router.post('/export', async (req, res) => {
    await send(res, await history.start(accountOf(res).id, parseBody(exportRequestSchema, req.body)));
  });
  router.post('/export/preview', async (req, res) => {
    const request = parseBody(exportRequestSchema, req.body);
    res.json((await history.preview(accountOf(res).id, request)) satisfies PreprocessingPreview);
  });
  router.get('/exports', async (_req, res) => {
    res.json((await history.list(accountOf(res).id)) satisfies ExportHistoryEntry[]);
  });
  router.get('/exports/:id/download', async (req, res) => {
    const kept = await history.download(accountOf(res).id, String(req.params.id));
    await send(res, kept, kept.size);
  });
  router.delete('/exports/:id', async (req, res) => {
    await history.delete(accountOf(res).id, String(req.params.id));
    res.status(204).end();
  });
  return router;
}
