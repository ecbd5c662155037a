import { Router } from 'express';
import { accountOf } from '../auth/middleware.ts';
import { exportRequestSchema, preprocessedSearchRequestSchema, searchRequestSchema } from '../contracts.ts';
import { parseBody } from '../validation.ts';
import type { ExportService } from './export.service.ts';
import type { SearchService } from './search.service.ts';

/** `/api/file/search`, `/api/file/export` and `/api/file/preprocessed/search`. */
export function searchRoutes(search: SearchService, exports: ExportService): Router {
  const router = Router();
  router.post('/search', async (req, res) => {
    const request = parseBody(searchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'GENERAL', request));
  });
  router.post('/preprocessed/search', async (req, res) => {
    const request = parseBody(preprocessedSearchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'AUTHOR', request));
  });
  router.post('/export', async (req, res) => {
    const request = parseBody(exportRequestSchema, req.body);
    const prepared = await exports.prepare(accountOf(res).id, request);
    res.attachment(prepared.filename);
    res.type(prepared.contentType);
    await prepared.write(res);
  });
  return router;
}
