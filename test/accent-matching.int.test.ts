/**
 * Accent- and case-insensitive matching: the engine's fold (clickhouse `foldSql`) and the web
 * app's (`foldText`) agree; searches, suggestions and exports find `Müller` for `muller` unless the
 * search asks for `matchAccents`; the folded text index serves both; indexes built on raw values by
 * an earlier Sift are rebuilt folded at start-up.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  containsSql,
  containsTerm,
  foldSql,
  ident,
  newUploadRecord,
  textIndexName,
  type FileRow,
  type Storage,
} from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { foldText, matchedParts } from '@sift/shared/contracts';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('accents');
let storage: Storage;
beforeAll(() => {
  storage = temp.storage();
});

const NAMES = [
  'Müller, Hans',
  'MÜLLER, ANNA',
  'Muller, Paul',
  'José Álvarez',
  'Jose Alvarez',
  'Sørensen, Kirsten',
  'Sorensen, Kim',
  'Łukasz Wałęsa',
  'Straße, Jürgen',
  'Dvořák, Antonín',
  'Ærøskøbing Ltd',
  'Œuvre Þórsdóttir',
  'İstanbul Ğüneş',
  '100% café_au_lait',
];

async function ingest(name: string, text: string): Promise<FileRow> {
  const id = randomUUID();
  writeFileSync(path.join(temp.dir, id), text);
  await storage.files.save(
    newUploadRecord({ id, ownerId: 'o', originalFilename: name, filename: id, sizeBytes: text.length }),
  );
  const written = await ingestFile(
    { storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp'), csvLoader: 'engine' },
    { fileId: id, ownerId: 'o', storedName: id, originalFilename: name },
  );
  const row = written.find((f) => f.id === id)!;
  expect(row.status).toBe('PROCESSED');
  return row;
}

let file: FileRow;
beforeAll(async () => {
  // Enough rows (and repeats) that the column is indexed; the names are what is counted.
  const lines = ['Authors,Note'];
  for (let i = 0; i < 120; i++) lines.push(`"${NAMES[i % NAMES.length]}",row ${i}`);
  file = await ingest('names.csv', `${lines.join('\n')}\n`);
});

const countOf = (name: string) => 120 / NAMES.length + (NAMES.indexOf(name) < 120 % NAMES.length ? 1 : 0);
const sum = (...names: string[]) => names.reduce((n, name) => n + Math.floor(countOf(name)), 0);
const count = (term: string, matchAccents = false) =>
  storage.rows.count({ files: [file], criteria: { Authors: term }, matchAccents });

describe('folding', () => {
  it('folds in the engine exactly as foldText does', async () => {
    const samples = [
      ...NAMES,
      'ẞ GROSS',
      'e\u0301clair',
      'Ǆ ǅ ǆ',
      'ĦĐŦ ıİ',
      'Ꭰ Ω ς Σ',
      'Nguyễn Thị',
      'Иванов ИВАНОВ',
      'ÀÉÎÕÜ àéîõü',
    ];
    const rs = await storage.client.query({
      query: `SELECT ${foldSql('s')} FROM (SELECT arrayJoin({samples:Array(String)}) AS s)`,
      query_params: { samples },
      format: 'JSONCompactEachRow',
    });
    const engine = (await rs.json<[string]>()).map((r) => r[0]);
    expect(engine).toEqual(samples.map(foldText));
    expect(foldText('Sørensen MÜLLER Straße Łukasz Nguyễn')).toBe('sorensen muller strasse lukasz nguyen');
  });

  it('names the matched part of a value as written', () => {
    expect(matchedParts('Zoë MÜLLER and Muller', 'muller')).toEqual(['MÜLLER', 'Muller']);
    expect(matchedParts('Straße 5', 'strasse')).toEqual(['Straße']);
    expect(matchedParts('Nguyễn, T', 'NGUYEN')).toEqual(['Nguyễn']);
    expect(matchedParts('Müller', 'muller', true)).toEqual([]);
    expect(matchedParts('Müller', 'MÜL', true)).toEqual(['Mül']);
    // An exact criterion marks the whole value, or nothing.
    expect(matchedParts('MÜLLER, H', '"muller, h"')).toEqual(['MÜLLER, H']);
    expect(matchedParts('Müller, Hans', '"muller, h"')).toEqual([]);
    expect(matchedParts('MÜLLER, H', '"muller, h"', true)).toEqual([]);
  });
});

describe('searching', () => {
  it('finds every spelling of a name regardless of case and accents', async () => {
    const muller = sum('Müller, Hans', 'MÜLLER, ANNA', 'Muller, Paul');
    expect(muller).toBeGreaterThan(3);
    expect(await count('muller')).toBe(muller);
    expect(await count('MÜLLER')).toBe(muller);
    expect(await count('jose')).toBe(sum('José Álvarez', 'Jose Alvarez'));
    expect(await count('José')).toBe(sum('José Álvarez', 'Jose Alvarez'));
    expect(await count('sorensen')).toBe(sum('Sørensen, Kirsten', 'Sorensen, Kim'));
    expect(await count('lukasz walesa')).toBe(sum('Łukasz Wałęsa'));
    expect(await count('strasse')).toBe(sum('Straße, Jürgen'));
    expect(await count('dvorak')).toBe(sum('Dvořák, Antonín'));
    expect(await count('aeroskobing')).toBe(sum('Ærøskøbing Ltd'));
    expect(await count('istanbul gunes')).toBe(sum('İstanbul Ğüneş'));
    // LIKE's own characters are still literal.
    expect(await count('100% cafe_au')).toBe(sum('100% café_au_lait'));
    expect(await count('100%_cafe')).toBe(0);
  });

  it('with matchAccents, accents count and case still does not', async () => {
    expect(await count('muller', true)).toBe(sum('Muller, Paul'));
    expect(await count('müller', true)).toBe(sum('Müller, Hans', 'MÜLLER, ANNA'));
    expect(await count('SØRENSEN', true)).toBe(sum('Sørensen, Kirsten'));
  });

  it('serves both matchings from the folded text index', async () => {
    const col = file.columnMap.Authors!;
    expect(await storage.rows.indexedColumns()).toContain(col);
    const muller = containsTerm('t', 'muller');
    for (const exact of [false, true]) {
      const plan = await storage.client.query({
        query: `EXPLAIN indexes = 1 SELECT count() FROM ${ident(storage.database)}.rows
                WHERE ${containsSql(ident(col), muller, exact)}`,
        query_params: muller.params,
        format: 'TabSeparatedRaw',
      });
      expect(await plan.text()).toContain(textIndexName(col));
    }
  });

  it('suggests and pages accented values for plain letters', async () => {
    const values = await storage.rows.suggest([file], 'Authors', 'muller', 10);
    expect(values.sort()).toEqual(['MÜLLER, ANNA', 'Muller, Paul', 'Müller, Hans'].sort());
    const any = await storage.rows.suggestAny([file], 'sorensen', 10);
    expect(any.map((s) => s.value).sort()).toEqual(['Sorensen, Kim', 'Sørensen, Kirsten']);
    // Terms the text index cannot serve (short, or spanning a separator) are read with ILIKE and
    // folded side by side: both spellings come back, most frequent first.
    for (const short of ['mü', 'mu'])
      expect((await storage.rows.suggest([file], 'Authors', short, 10)).sort()).toEqual(
        ['MÜLLER, ANNA', 'Muller, Paul', 'Müller, Hans'].sort(),
      );
    expect(await storage.rows.suggest([file], 'Authors', 'ller, h', 10)).toEqual(['Müller, Hans']);
    // A term with a fragment the index answers (`sorensen`): that fragment first, as a PREWHERE.
    expect((await storage.rows.suggestAny([file], 'sorensen, k', 10)).map((s) => s.value).sort()).toEqual([
      'Sorensen, Kim',
      'Sørensen, Kirsten',
    ]);
    expect((await storage.rows.suggestAny([file], 'sø', 10)).map((s) => s.value).sort()).toEqual([
      'Sorensen, Kim',
      'Sørensen, Kirsten',
    ]);
    const hits = await storage.rows.page({ files: [file], criteria: { Authors: 'dvorak' } }, 0, 100);
    expect(new Set(hits.map((h) => h.cells.Authors))).toEqual(new Set(['Dvořák, Antonín']));
  });
});

it('rebuilds a text index of an earlier Sift, built on raw values, on folded ones', async () => {
  const db = ident(storage.database);
  const col = 'c_legacy_index_test';
  await storage.client.command({
    query: `ALTER TABLE ${db}.rows ADD COLUMN ${ident(col)} String DEFAULT '',
            ADD INDEX ${ident(textIndexName(col))} ${ident(col)} TYPE text(tokenizer = splitByNonAlpha)`,
  });
  const legacy = await ingest('legacy.csv', 'Other\nx\n');
  await storage.client.command({
    query: `INSERT INTO ${db}.rows (file_id, sheet, row_number, ${ident(col)})
            SELECT {id:String}, 'Sheet1', number + 2, if(number % 2 = 0, 'Müller', 'Smith') FROM numbers(100)`,
    query_params: { id: legacy.id },
  });
  const expressions = async () => {
    const rs = await storage.client.query({
      query: `SELECT expr FROM system.data_skipping_indices WHERE database = {db:String} AND name = {n:String}`,
      query_params: { db: storage.database, n: textIndexName(col) },
      format: 'JSONCompactEachRow',
    });
    return (await rs.json<[string]>()).map((r) => r[0].replaceAll('`', ''));
  };
  expect(await expressions()).toEqual([col]);

  expect(await storage.rows.prepareFolding()).toEqual([col]);
  const [expr] = await expressions();
  expect(expr).toContain('lengthUTF8');
  expect(await storage.rows.prepareFolding()).toEqual([]);
  const withColumn = { ...legacy, columnMap: { ...legacy.columnMap, Legacy: col } };
  expect(await storage.rows.count({ files: [withColumn], criteria: { Legacy: 'muller' } })).toBe(50);
});
