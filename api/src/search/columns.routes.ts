import { Router, type Request, type Response } from 'express';
import type { StoredFileType } from '@sift/clickhouse';
import { accountOf } from '../auth/middleware.ts';
import {
  autocompleteRequestSchema,
  columnsRequestSchema,
  multiColumnAutocompleteSchema,
  SUGGESTION_LIMIT,
  type ColumnSuggestions,
  type FileSuggestion,
  type ValueSuggestion,
  unionColumns,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import type { FileFilters, SearchService } from './search.service.ts';

/** The request's parameters: the JSON body for POST, the query string for GET. */
const input = (req: Request): unknown => (req.method === 'POST' ? req.body : req.query);

/**
 * Column lists and suggestions under `/api/file`: `/columns`, `/columns/for-files`,
 * `/columns/excluding`, `/autocomplete/regular/{columnName}`, `/autocomplete/authors/{columnName}`,
 * `/autocomplete/columns`, `/autocomplete/search` and `/files/autocomplete` (shapes in contracts.ts).
 * Every answer covers the caller's PROCESSED files only.
 */
export function columnsRoutes(search: SearchService): Router {
  const router = Router();
  const columns = async (ownerId: string, filters: FileFilters) =>
    unionColumns(await search.files(ownerId, 'GENERAL', filters));

  router.get('/columns', async (_req, res) => {
    res.json(await columns(accountOf(res).id, {}));
  });
  router.post(['/columns/for-files', '/columns/excluding'], async (req, res) => {
    res.json(await columns(accountOf(res).id, parseBody(columnsRequestSchema, req.body)));
  });

  const suggestions = (fileType: StoredFileType) => async (req: Request, res: Response) => {
    const request = parseBody(autocompleteRequestSchema, input(req));
    const files = await search.files(accountOf(res).id, fileType, request);
    const values = await search.suggest(files, String(req.params.columnName), request.query, request.limit);
    res.json(values satisfies string[]);
  };
  for (const [kind, fileType] of [
    ['regular', 'GENERAL'],
    ['authors', 'AUTHOR'],
  ] as const) {
    router.get(`/autocomplete/${kind}/:columnName`, suggestions(fileType));
    router.post(`/autocomplete/${kind}/:columnName`, suggestions(fileType));
  }

  router.get('/autocomplete/columns', async (req, res) => {
    const request = parseBody(multiColumnAutocompleteSchema, req.query);
    const files = await search.files(accountOf(res).id, 'GENERAL', request);
    const out = Object.create(null) as ColumnSuggestions;
    for (const column of request.columnNames ?? []) {
      out[column] = await search.suggest(files, column, request.query, request.limit);
    }
    res.json(out);
  });
  router.get('/autocomplete/search', async (req, res) => {
    const request = parseBody(autocompleteRequestSchema, req.query);
    const files = await search.files(accountOf(res).id, 'GENERAL', request);
    res.json((await search.suggestAny(files, request.query, request.limit)) satisfies ValueSuggestion[]);
  });
  router.get('/files/autocomplete', async (req, res) => {
    const { query, limit } = parseBody(autocompleteRequestSchema, req.query);
    const needle = query.toLocaleLowerCase();
    const files = await search.allFiles(accountOf(res).id);
    const matches: FileSuggestion[] = files
      .filter((f) => f.originalFilename.toLocaleLowerCase().includes(needle))
      .slice(0, limit ?? SUGGESTION_LIMIT)
      .map((f) => ({ id: f.id, originalFilename: f.originalFilename, fileType: f.fileType }));
    res.json(matches);
  });
  return router;
}
