import { Router } from 'express';
import { accountOf } from '../auth/middleware.ts';
import {
  authorSearchRequestSchema,
  peopleSearchRequestSchema,
  type PeopleSearchResponse,
  saveQueryRequestSchema,
  searchRequestSchema,
  type SavedQuery,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import type { SavedQueries } from './saved-queries.ts';
import type { SearchService } from './search.service.ts';
import type { PeopleService } from './people.service.ts';

/**
 * `/api/file/search`, `/api/file/preprocessed/search`, `/api/file/people/search` and saved
 * queries (`/api/file/queries…`).
 */
export function searchRoutes(search: SearchService, queries: SavedQueries, people: PeopleService): Router {
  const router = Router();
  router.post('/search', async (req, res) => {
    const request = parseBody(searchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'GENERAL', request));
  });
  router.post('/preprocessed/search', async (req, res) => {
    const request = parseBody(authorSearchRequestSchema, req.body);
    res.json(await search.search(accountOf(res).id, 'AUTHOR', request));
  });
  router.post('/people/search', async (req, res) => {
    const request = parseBody(peopleSearchRequestSchema, req.body);
    res.json((await people.search(accountOf(res).id, request)) satisfies PeopleSearchResponse);
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
