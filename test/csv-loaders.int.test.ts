/**
 * The CSV loaders must agree: the embedded engine reading the stored file in place, the engine
 * loading transcoded chunks, and JavaScript (fast-csv); and the same three against a ClickHouse
 * server (the test-only server), which is sent the bytes as its INSERT's body. Each real-world case
 * is ingested by all six, and the file records and every stored row, of the GENERAL and the AUTHOR
 * file, are compared.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUploadRecord, openStorage, type Storage } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { startTestClickHouse, type TestClickHouse } from './support/clickhouse-server.ts';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const temp = useTempStorage('csv');
const dir = temp.dir;
let storage: Storage;
let server: TestClickHouse;
let onServer: Storage;
beforeAll(async () => {
  storage = temp.storage();
  server = await startTestClickHouse();
  onServer = await openStorage({
    url: server.url,
    user: 'default',
    password: '',
    database: 'csv',
    dataDir: dir,
  });
});
afterAll(async () => {
  await onServer?.close();
  await server?.stop();
});

/**
 * Ingests `bytes` as `name` with one loader into `into` (default the embedded engine); returns the
 * records written and every row, in order. `javascript` loads its batches as CSV files through the
 * engine.
 */
async function ingest(
  name: string,
  bytes: Buffer,
  loader: 'engine' | 'engine-chunked' | 'javascript',
  into: Storage = storage,
) {
  const id = randomUUID();
  const stored = `${id}.csv`;
  writeFileSync(path.join(dir, stored), bytes);
  const row = newUploadRecord({
    id,
    ownerId: 'o',
    originalFilename: name,
    filename: stored,
    sizeBytes: bytes.length,
  });
  await into.files.save(row);
  const written = await ingestFile(
    {
      storage: into,
      originals: originalsIn(dir),
      tmpDir: path.join(dir, 'tmp'),
      csvLoader: loader,
      csvChunkBytes: 64,
      // The AUTHOR rows of a few GENERAL rows at a time, in several joins, must be the same.
      authorJoinRunRows: loader === 'engine-chunked' ? 2 : undefined,
    },
    { fileId: id, ownerId: 'o', storedName: stored, originalFilename: name },
  );
  const out = [];
  for (const f of written) {
    const rows = [];
    for await (const batch of into.rows.scan({ files: [f], criteria: {} })) {
      rows.push(...batch.map((h) => ({ sheet: h.sheet, rowNumber: h.rowNumber, cells: { ...h.cells } })));
    }
    out.push({
      fileType: f.fileType,
      totalRows: f.totalRows,
      columnNames: f.columnNames,
      sheetNames: f.sheetNames,
      rows,
    });
  }
  return out;
}

const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s, 'utf16le').swap16()]);
const cases: [string, Buffer][] = [
  ['plain.csv', Buffer.from('Name,City\nAda,London\nBob,Paris\n')],
  [
    'bom-crlf.csv',
    Buffer.from('\uFEFFName;Note\r\n"Müller, J";"said ""hi""\r\nand left"\r\nZoë;  spaced  \r\n'),
  ],
  ['utf16.csv', utf16le('Name\tCity\nZoë\tZürich\n\nÅsa\tÖrebro\n')],
  ['utf16be.csv', utf16be('Name,City\r\n"Zoë, Z",Zürich\r\nÅsa,Örebro\r\n')],
  ['cp1252.csv', Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a])],
  [
    'ragged.csv',
    Buffer.from('\n\n,\nName,Email\nAda\nBob,bob@x.org,extra,more\n\nCy,cy@x.org,,\n\\N,x\nlast,row'),
  ],
  ['header-only.csv', Buffer.from('Name,Email\n')],
  [
    'tricky-values.csv',
    Buffer.from(
      'Name,Note,Path\n' +
        '" lead and trail ","tab\there, ""quoted""",C:\\dir\\file\n' +
        '\\N,"line\rbreak","multi\nline"\n' +
        "=1+1,'single',😀 emoji\n" +
        'x,  unquoted lead, unquoted trail \n' +
        '  first field lead,y,z\n',
    ),
  ],
  [
    'tab-crlf.csv',
    Buffer.from(
      'Name\tNote\tCity\r\n' +
        '  lead\t"q\tx ""y"""\tParis \r\n' +
        '\t\tfirst two empty\r\n' +
        'Åsa\t"multi\r\nline"\tÖrebro\r\n',
    ),
  ],
  ['tab-lf-ragged.csv', Buffer.from('\n\t\nA\tB\nx\ny\tz\textra\n\\N\t\n\n last\trow')],
  ['tab-leading-blank-lines.csv', Buffer.from('\r\n\t\r\nA\tB\r\n1\t2\r\n\r\n\t\r\n3\t 4\r\n')],
  ['tab-mixed-ends.csv', Buffer.from('A\tB\r\nx\ty\nz\tw\r\n')],
  ['tab-bom.csv', Buffer.from('\uFEFFA\tB\r\n"1\r\n2"\t 3\r\n')],
  // Several chunks (the test cuts at 64 bytes) of CRLF records, comma- and tab-delimited.
  ['crlf-chunks.csv', Buffer.from(`\uFEFFName,Note\r\n${'Ada Lovelace,"first\r\nsecond"\r\n'.repeat(12)}`)],
  [
    'tab-crlf-chunks.csv',
    Buffer.from(`\uFEFFName\tNote\r\n${'Ada Lovelace\t"first\r\nsecond"\r\n'.repeat(12)}`),
  ],
  ['wide-late.csv', Buffer.from(`A,B\n${'1,2\n'.repeat(50)}x,y,z,w\n3,4\n`)],
  ['multiline-header.csv', Buffer.from('"Full\nName",City\nAda,London\n')],
  ['dup-headers.csv', Buffer.from('A,A,,B\n1,2,3,4\n')],
  [
    'wos.csv',
    Buffer.from(
      'Authors,Author Full Names,Article Title,Email Addresses\n' +
        '"Feuerriegel, S; Hartmann, J","Feuerriegel, Stefan; Hartmann, Jochen",Generative AI,"jochen.hartmann@tum.de; feuerriegel@lmu.de"\n' +
        '"Rafner, J; Sherson, J","Rafner, Janet; Sherson, Jacob",Creativity,sherson@mgmt.au.dk\n' +
        'Nobody,,Editorial,\n',
    ),
  ],
  [
    'wos-runs.csv',
    Buffer.from(
      'Authors,Author Full Names,Article Title,Email Addresses,Notes\n' +
        '"Feuerriegel, S; Hartmann, J","Feuerriegel, Stefan; Hartmann, Jochen",A,"jochen.hartmann@tum.de; feuerriegel@lmu.de",n1\n' +
        '\n' +
        '"Rafner, J; Sherson, J","Rafner, Janet; Sherson, Jacob",B,sherson@mgmt.au.dk,n2\n' +
        ',,C,orphan@x.org,n3\n' +
        ',,D,,n4\n' +
        '\n\n' +
        '"Lee, M; Kim, JS; Kim, M",,E,"kim@x.kr; mlee@y.org",n5\n' +
        '"Ng, A",,F,,"n6, last"\n',
    ),
  ],
];

describe('CSV loaders agree', () => {
  for (const [name, bytes] of cases) {
    it(name, async () => {
      const engine = await ingest(name, bytes, 'engine');
      const chunked = await ingest(name, bytes, 'engine-chunked');
      const js = await ingest(name, bytes, 'javascript');
      expect(engine).toEqual(js);
      expect(chunked).toEqual(js);
      for (const loader of ['engine', 'engine-chunked', 'javascript'] as const) {
        expect(await ingest(name, bytes, loader, onServer), `${loader} on a server`).toEqual(js);
      }
      expect(engine[0]!.rows.length).toBe(engine[0]!.totalRows);
    });
  }

  it('lets the engine read tab-delimited text, with the record end of the file', async () => {
    // The real loader, watched: which files the engine was given, and how.
    const seen: { delimiter: string; recordEnd?: string }[] = [];
    const load = storage.rows.loadCsvFile.bind(storage.rows);
    storage.rows.loadCsvFile = (params) => {
      seen.push({ delimiter: params.delimiter, recordEnd: params.recordEnd });
      return load(params);
    };
    try {
      const tabCase = (name: string) => cases.find((c) => c[0] === name)!;
      const files = await ingest('tab-crlf.csv', tabCase('tab-crlf.csv')[1], 'engine');
      expect(seen).toContainEqual({ delimiter: '\t', recordEnd: '\r\n' });
      expect(files[0]!.rows.map((r) => r.cells)).toEqual([
        { Name: '  lead', Note: 'q\tx "y"', City: 'Paris ' },
        { Name: '', Note: '', City: 'first two empty' },
        { Name: 'Åsa', Note: 'multi\r\nline', City: 'Örebro' },
      ]);
      seen.length = 0;
      await ingest('tab-lf-ragged.csv', tabCase('tab-lf-ragged.csv')[1], 'engine-chunked');
      expect(seen).toContainEqual({ delimiter: '\t', recordEnd: '\n' });
    } finally {
      storage.rows.loadCsvFile = load;
    }
  });

  it('reads the WoS-like file into the expected rows', async () => {
    const files = await ingest('wos.csv', cases.find((c) => c[0] === 'wos.csv')![1], 'engine');
    const general = files.find((f) => f.fileType === 'GENERAL');
    const authors = files.find((f) => f.fileType === 'AUTHOR');
    expect(
      authors!.rows.map((r) => [r.cells['Authors'], r.cells['Email Addresses'], r.cells['Email Match']]),
    ).toEqual([
      ['Feuerriegel, S', 'feuerriegel@lmu.de', 'name'],
      ['Hartmann, J', 'jochen.hartmann@tum.de', 'name'],
      ['Rafner, J', '', ''],
      ['Sherson, J', 'sherson@mgmt.au.dk', 'name'],
      ['Nobody', '', ''],
    ]);
    expect(general!.rows.map((r) => r.rowNumber)).toEqual([2, 3, 4]);
  });
});
