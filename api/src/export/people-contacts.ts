import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { format as csvFormat } from 'fast-csv';
import { peopleSearchRequestSchema } from '@sift/shared/contracts';
import { neutralise } from '@sift/shared/csv-injection';
import { rowXml } from '@sift/shared/ooxml';
import { accountOf } from '../auth/middleware.ts';
import type { PeopleService } from '../search/people.service.ts';
import { parseBody } from '../validation.ts';
import { XlsxStreamWriter } from './xlsx-writer.ts';

/**
 * `GET /api/file/people/contacts?query=&format=`: the contact list of the people a query finds
 * (PeopleService.contacts), one row per person, as a download named
 * `people-contacts-{date}.csv` or `.xlsx`. CSV: UTF-8 with a BOM, formula-safe (neutralise);
 * XLSX (`format=XLSX`): inline strings, never formulas, each value exact.
 */
export function peopleContactsRoutes(people: PeopleService): Router {
  const router = Router();
  router.get('/people/contacts', async (req, res) => {
    const { query } = parseBody(peopleSearchRequestSchema, {
      query: typeof req.query.query === 'string' ? req.query.query : '',
    });
    const format = req.query.format === 'XLSX' ? 'XLSX' : 'CSV';
    const { header, rows } = await people.contacts(accountOf(res).id, query);
    res.attachment(`people-contacts-${new Date().toISOString().slice(0, 10)}.${format.toLowerCase()}`);
    if (format === 'XLSX') {
      res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const xlsx = new XlsxStreamWriter(res, rowXml(header, 1));
      for (const row of rows) await xlsx.addRow(row);
      await xlsx.finish();
      return;
    }
    res.type('text/csv; charset=utf-8');
    const safe = rows.map((row) => row.map(neutralise));
    await pipeline(Readable.from([header, ...safe]), csvFormat<string[], string[]>({ writeBOM: true }), res);
  });
  return router;
}
