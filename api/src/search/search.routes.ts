import { Router } from 'express';
import { accountOf } from '../auth/middleware.ts';
import {
  exportRequestSchema,
  authorSearchRequestSchema,
  saveQueryRequestSchema,
  searchRequestSchema,
  type ExportHistoryEntry,
  type PreprocessingPreview,
  type SavedQuery,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import type { ExportHistory } from './export-history.ts';
import type { SavedQueries } from './saved-queries.ts';
import type { SearchService } from './search.service.ts';

/**
 * `/api/file/search`, `/api/file/preprocessed/search`, `/api/file/export`, the export history
 * (`/api/file/exports…`) and saved queries (`/api/file/queries…`).
 */
export function searchRoutes(search: SearchService, history: ExportHistory, queries: SavedQueries): Router {
  const router = Router();
  router.post('/search', async (req, res) => {
    const request = parseBody(searchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'GENERAL', request));
  });
  router.post('/preprocessed/search', async (req, res) => {
    const request = parseBody(authorSearchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'AUTHOR', request));
  });
  router.post('/export', async (req, res) => {
    await history.run(accountOf(res).id, parseBody(exportRequestSchema, req.body), res);
  });
  router.post('/export/preview', async (req, res) => {
    const request = parseBody(exportRequestSchema, req.body);
    res.json((await history.preview(accountOf(res).id, request)) satisfies PreprocessingPreview);
  });
  router.get('/exports', async (_req, res) => {
    res.json((await history.list(accountOf(res).id)) satisfies ExportHistoryEntry[]);
  });
  router.get('/exports/:id/download', async (req, res) => {
    await history.download(accountOf(res).id, String(req.params.id), res);
  });
  router.delete('/exports/:id', async (req, res) => {
    await history.delete(accountOf(res).id, String(req.params.id));
    res.status(204).end();
  });

  router.get('/queries', async (_req, res) => {
    res.json((await queries.list(accountOf(res).id)) satisfies SavedQuery[]);
  });
  router.post('/queries', async (req, res) => {
    const saved = await queries.save(accountOf(res).id, parseBody(saveQueryRequestSchema, req.body));
    res.status(201).json(saved satisfies SavedQuery);
  });
  router.delete('/queries/:id', async (req, res) => {
    await queries.delete(accountOf(res).id, String(req.params.id));
    res.status(204).end();
  });
  return router;
}
