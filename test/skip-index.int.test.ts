/**
 * Text skip indexes (architecture, "Skip index"): each new column gets one unless its values are
 * ID-like, decided from the rows being ingested, on both the engine CSV path and the JavaScript
 * parsers; searches on an indexed column use the index and still find exactly the rows.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  containsSql,
  containsTerm,
  ident,
  MAX_TEXT_INDEXES,
  newUploadRecord,
  textIndexName,
  type Storage,
} from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { foldText } from '@sift/shared/contracts';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('index');
const dir = temp.dir;
let storage: Storage;
beforeAll(() => {
  storage = temp.storage();
});

async function ingest(name: string, text: string, csvLoader: 'engine' | 'javascript') {
  const id = randomUUID();
  writeFileSync(path.join(dir, id), text);
  await storage.files.save(
    newUploadRecord({ id, ownerId: 'o', originalFilename: name, filename: id, sizeBytes: text.length }),
  );
  const written = await ingestFile(
    { storage, originals: originalsIn(dir), tmpDir: path.join(dir, 'tmp'), csvLoader },
    { fileId: id, ownerId: 'o', storedName: id, originalFilename: name },
  );
  return written.find((f) => f.id === id)!;
}

const SURNAMES = ['Smith', 'Müller', 'García', 'Kim', 'Nguyen', 'Rossi', 'Novak', 'Tanaka'];

describe.each(['engine', 'javascript'] as const)('skip indexes (%s loader)', (loader) => {
  it('indexes name columns, not ID-like ones, and searches use the index', async () => {
    const names = loader === 'engine' ? ['Authors', 'DOI'] : ['Author Names', 'Accession Number'];
    const lines = [names.join(',')];
    for (let i = 0; i < 300; i++) {
      const author = i === 123 ? 'Zyskowski, Q' : `${SURNAMES[i % 8]}, A`;
      lines.push(`"${author}",10.${1000 + (i % 40)}/j.x.2020.${i}`);
    }
    const file = await ingest(`${loader}.csv`, `${lines.join('\n')}\n`, loader);
    expect(file.status).toBe('PROCESSED');
    const [authorCol, idCol] = names.map((h) => file.columnMap[h]!);
    const indexed = await storage.rows.indexedColumns();
    expect(indexed.has(authorCol!)).toBe(true);
    expect(indexed.has(idCol!)).toBe(false);

    const zyskowski = containsTerm('t', 'zyskowski');
    const where = `file_id = {id:String} AND ${containsSql(ident(authorCol!), zyskowski)}`;
    const params = { id: file.id, ...zyskowski.params };
    const plan = await storage.client.query({
      query: `EXPLAIN indexes = 1 SELECT count() FROM ${ident(storage.database)}.rows WHERE ${where}`,
      query_params: params,
      format: 'TabSeparatedRaw',
    });
    expect(await plan.text()).toContain(textIndexName(authorCol!));

    const criteria = { [names[0]!]: 'zyskowski' };
    expect(await storage.rows.count({ files: [file], criteria })).toBe(1);
    const muller = lines.filter((l) => l.startsWith('"Müller')).length;
    expect(muller).toBeGreaterThan(0);
    expect(await storage.rows.count({ files: [file], criteria: { [names[0]!]: 'MÜLLER' } })).toBe(muller);
    expect(await storage.rows.count({ files: [file], criteria: { [names[1]!]: '2020.123' } })).toBe(1);
  });
});

it('narrows a term spanning a separator to the granules holding its longer fragments', async () => {
  const lines = ['Authors'];
  for (let i = 0; i < 30_000; i++) lines.push(`"${i === 21_000 ? 'Zyskowski, Q' : `${SURNAMES[i % 8]}, A`}"`);
  const file = await ingest('granules.csv', `${lines.join('\n')}\n`, 'engine');
  const col = file.columnMap.Authors!;
  const explain = async (term: string) => {
    const contains = containsTerm('t', term);
    const plan = await storage.client.query({
      query: `EXPLAIN indexes = 1 SELECT count() FROM ${ident(storage.database)}.rows
              WHERE file_id = {id:String} AND ${containsSql(ident(col), contains)}`,
      query_params: { ...contains.params, id: file.id },
      format: 'TabSeparatedRaw',
    });
    const text = await plan.text();
    const index = text.slice(text.indexOf(`Name: ${textIndexName(col)}`));
    return /Granules: (\d+)\/(\d+)/.exec(index)!.slice(1).map(Number);
  };
  const [kept, of] = await explain('zyskowski, q');
  expect(of).toBeGreaterThan(2);
  expect(kept).toBe(1);
  expect(containsTerm('t', 'zyskowski, q')).toMatchObject({ fragments: ['tf0'], indexed: true });
  expect(containsTerm('t', 'li, q')).toMatchObject({ fragments: [], indexed: false });
  expect(containsTerm('t', 'müller')).toMatchObject({ fragments: [], indexed: true });
  expect(await storage.rows.count({ files: [file], criteria: { Authors: 'zyskowski, q' } })).toBe(1);
  expect(await storage.rows.count({ files: [file], criteria: { Authors: 'MULLER, a' } })).toBe(3_750);
});

it('finds with an indexed part read first (PREWHERE) exactly what folding every row finds', async () => {
  const initials = ['A', 'Q', 'a', 'Å'];
  const words = ['graph', 'Graphen', 'soil', 'ocean'];
  const lines = ['Authors,Title'];
  const rows: { Authors: string; Title: string }[] = [];
  for (let i = 0; i < 20_000; i++) {
    const surname = i === 17_001 ? 'Zyskowski' : i % 97 === 0 ? 'MULLER' : SURNAMES[i % 8]!;
    const row = { Authors: `${surname}, ${initials[(i >> 3) % 4]}`, Title: `${words[i % 3]} ${i}` };
    rows.push(row);
    lines.push(`"${row.Authors}","${row.Title}"`);
  }
  const file = await ingest('prewhere.csv', `${lines.join('\n')}\n`, 'engine');
  const cases: [Record<string, string>, boolean][] = [
    [{ Authors: 'muller, a' }, false], // fragment `muller` read first
    [{ Authors: 'Müller, A' }, true], // the same, accents kept
    [{ Authors: 'muller, a', Title: 'graph' }, false], // with an indexed whole term
    [{ Authors: 'zyskowski, q' }, false],
    [{ Authors: 'ller, å' }, false], // nothing the index serves: one WHERE
    [{ Title: 'graphen' }, false],
  ];
  for (const [criteria, matchAccents] of cases) {
    const fold = matchAccents ? (t: string) => t.toLowerCase() : foldText;
    const expected = rows.filter((r) =>
      Object.entries(criteria).every(([h, term]) => fold(r[h as keyof typeof r]).includes(fold(term))),
    );
    expect(expected.length, JSON.stringify(criteria)).toBeGreaterThan(0);
    const query = { files: [file], criteria, matchAccents };
    expect(await storage.rows.count(query), JSON.stringify(criteria)).toBe(expected.length);
    const page = await storage.rows.page(query, 0, 50);
    expect(page.map((h) => h.cells.Authors)).toEqual(expected.slice(0, 50).map((r) => r.Authors));
  }
});

it('indexes at most MAX_TEXT_INDEXES columns; the rest are created and scanned', async () => {
  const headers = Array.from({ length: MAX_TEXT_INDEXES + 20 }, (_, i) => `Wide ${i}`);
  const sample = [headers.map((h) => `${h} value`)];
  const map = await storage.rows.ensureColumns(headers, sample);
  expect(headers.every((h) => map[h])).toBe(true);
  const indexed = await storage.rows.indexedColumns();
  expect(indexed.size).toBe(MAX_TEXT_INDEXES);
  expect(headers.filter((h) => indexed.has(map[h]!)).length).toBeGreaterThan(0);
  expect(indexed.has(map[headers[headers.length - 1]!]!)).toBe(false);
});
