import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { format as csvFormat } from 'fast-csv';
import { peopleFilterSchema } from '@sift/shared/contracts';
import { neutralise } from '@sift/shared/csv-injection';
import { rowXml } from '@sift/shared/ooxml';
import { accountOf } from '../auth/middleware.ts';
import { PEOPLE_CONTACT_HEADER, type PeopleService } from '../search/people.service.ts';
import { parseBody, queryText } from '../validation.ts';
import { XlsxStreamWriter } from './xlsx-writer.ts';

/**
 * `GET /api/file/people/contacts?query=&country=&lastYear=&journal=&format=`: the contact list of
 * the people a People search finds (PeopleService.contacts), one row per person, as a download named
 * `people-contacts-{date}.csv` or `.xlsx`. CSV: UTF-8 with a BOM, formula-safe (neutralise);
 * XLSX (`format=XLSX`): inline strings, never formulas, each value exact.
 */
export function peopleContactsRoutes(people: PeopleService): Router {
  const router = Router();
  router.get('/people/contacts', async (req, res) => {
    const text = (name: string) => queryText(req.query, name);
    const filter = parseBody(peopleFilterSchema, {
      query: text('query') ?? '',
      country: text('country'),
      lastYear: text('lastYear'),
      journal: text('journal'),
    });
    const format = req.query.format === 'XLSX' ? 'XLSX' : 'CSV';
    const header = PEOPLE_CONTACT_HEADER;
    const rows = people.contacts(accountOf(res).id, filter);
    res.attachment(`people-contacts-${new Date().toISOString().slice(0, 10)}.${format.toLowerCase()}`);
    if (format === 'XLSX') {
      res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const xlsx = new XlsxStreamWriter(res, rowXml(header, 1));
      for await (const row of rows) await xlsx.addRow(row);
      await xlsx.finish();
      return;
    }
    res.type('text/csv; charset=utf-8');
    async function* lines(): AsyncGenerator<string[]> {
      yield header;
      for await (const row of rows) yield row.map(neutralise);
    }
    await pipeline(Readable.from(lines()), csvFormat<string[], string[]>({ writeBOM: true }), res);
  });
  return router;
}
