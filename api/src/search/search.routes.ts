import { searchSeconds } from '@sift/shared/metrics';
import { Router } from 'express';
import { accountOf } from '../auth/middleware.ts';
import {
  authorSearchRequestSchema,
  peopleSearchRequestSchema,
  type PeopleSearchResponse,
  type PersonPageResponse,
  personDecisionRequestSchema,
  type PersonDecisionResponse,
  personDecisionUndoSchema,
  type ResultRow,
  sameNamePairsRequestSchema,
  type SameNamePairsResponse,
  saveQueryRequestSchema,
  searchRequestSchema,
  type SavedQuery,
} from '@sift/shared/contracts';
import { BadRequestError } from '../errors.ts';
import { parseBody, queryText } from '../validation.ts';
import type { SavedQueries } from './saved-queries.ts';
import type { SearchService } from './search.service.ts';
import type { PeopleService } from './people.service.ts';

/** `work`'s answer, its time observed in `sift_search_duration_seconds` (failures too). */
async function timed<T>(kind: 'rows' | 'authors' | 'people', work: Promise<T>): Promise<T> {
  const end = searchSeconds.startTimer({ kind });
  try {
    return await work;
  } finally {
    end();
  }
}

/**
 * `/api/file/search`, `/api/file/preprocessed/search`, `/api/file/people/search`, a person's
 * page (`/api/file/people/{id}`) and saved queries (`/api/file/queries…`).
 */
export function searchRoutes(search: SearchService, queries: SavedQueries, people: PeopleService): Router {
  const router = Router();
  router.post('/search', async (req, res) => {
    const request = parseBody(searchRequestSchema, req.body);
    res.json(await timed('rows', search.search(accountOf(res).id, 'GENERAL', request)));
  });
  router.post('/preprocessed/search', async (req, res) => {
    const request = parseBody(authorSearchRequestSchema, req.body);
    res.json(await timed('authors', search.search(accountOf(res).id, 'AUTHOR', request)));
  });
  router.post('/people/search', async (req, res) => {
    const request = parseBody(peopleSearchRequestSchema, req.body);
    res.json(
      (await timed('people', people.search(accountOf(res).id, request))) satisfies PeopleSearchResponse,
    );
  });
  router.get('/people/suggest', async (req, res) => {
    const prefix = (queryText(req.query, 'prefix') ?? '').slice(0, 200);
    res.json({ suggestions: await people.suggest(accountOf(res).id, prefix) });
  });
  router.get('/people/same-name', async (req, res) => {
    const { page, size } = parseBody(sameNamePairsRequestSchema, req.query);
    res.json((await people.sameNamePairs(accountOf(res).id, page, size)) satisfies SameNamePairsResponse);
  });
  router.post('/people/decisions', async (req, res) => {
    const request = parseBody(personDecisionRequestSchema, req.body);
    const account = accountOf(res);
    res.json((await people.decide(account.id, account.email, request)) satisfies PersonDecisionResponse);
  });
  router.post('/people/decisions/undo', async (req, res) => {
    const account = accountOf(res);
    await people.undo(account.id, account.email, parseBody(personDecisionUndoSchema, req.body));
    res.status(204).end();
  });
  // One entry of a person (its AUTHOR row) for the record drawer.
  router.get('/people/record', async (req, res) => {
    const q = (name: string) => queryText(req.query, name) ?? '';
    const rowNumber = Number(q('row'));
    if (!q('file') || !Number.isInteger(rowNumber) || rowNumber < 0)
      throw new BadRequestError('Give the entry as file, sheet and row.', 'VALIDATION_ERROR');
    res.json(
      (await people.record(accountOf(res).id, {
        fileId: q('file'),
        sheet: q('sheet'),
        rowNumber,
      })) satisfies ResultRow,
    );
  });
  router.get('/people/:id', async (req, res, next) => {
    // A person's id is 32 hex digits; other paths under /people (the contact list) are not persons.
    if (!/^[0-9a-f]{32}$/.test(String(req.params.id))) return next();
    res.json((await people.person(accountOf(res).id, String(req.params.id))) satisfies PersonPageResponse);
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
