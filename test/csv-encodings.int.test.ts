/**
 * CSV files in the encodings a publishing organisation meets (issue 23), real samples in
 * `test/fixtures/encodings`: a CNKI export in GB18030, a CiNii list in Shift_JIS, Czech and Polish
 * names in Windows-1250 and ISO-8859-2, an eLibrary export in Windows-1251. Each is detected
 * (chardet, checked by decoding) and ingested on both CSV loaders with its names intact.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUploadRecord, type Storage } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { guessEncoding } from '@sift/spreadsheet';
import { originalsIn } from './support/originals.ts';
import { useTempStorage } from './support/storage.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'encodings');
const temp = useTempStorage('encodings');
let storage: Storage;
beforeAll(() => {
  storage = temp.storage();
});

/** Each sample: its encoding, a header it has, and a name in that column. */
const SAMPLES = [
  { file: 'cnki-gb18030.csv', encoding: 'gb18030', header: '作者', name: '张伟' },
  { file: 'cinii-shift_jis.csv', encoding: 'shift_jis', header: '著者', name: '山田太郎' },
  { file: 'czech-windows-1250.csv', encoding: 'windows-1250', header: 'Autor', name: 'Dvořák, Antonín' },
  { file: 'polish-iso-8859-2.csv', encoding: 'iso-8859-2', header: 'Autorzy', name: 'Wałęsa, Łukasz' },
  {
    file: 'elibrary-windows-1251.csv',
    encoding: 'windows-1251',
    header: 'Авторы',
    name: 'Иванов Иван Иванович',
  },
];

describe('encoding detection', () => {
  it.each(SAMPLES)('reads $file as $encoding', ({ file, encoding }) => {
    const bytes = readFileSync(path.join(FIXTURES, file));
    const guess = guessEncoding(bytes, true);
    expect(guess).toMatchObject({ encoding, method: 'detector' });
    expect(guess.confidence).toBeGreaterThan(0);
  });

  it('says how it chose for UTF-8, a BOM, and Latin text', () => {
    expect(guessEncoding(Buffer.from('Name\nMüller\n'), true)).toEqual({
      encoding: 'utf-8',
      method: 'utf-8',
      confidence: 100,
    });
    expect(guessEncoding(Buffer.from('\ufeffName\n', 'utf16le'), true)).toMatchObject({
      encoding: 'utf-16le',
      method: 'bom',
    });
    const latin = Buffer.from(
      'Nom,Ville\r\n"Lefèvre, François",Génève\r\n"Dupré, Hélène",Besançon\r\n',
      'latin1',
    );
    expect(guessEncoding(latin, true)).toMatchObject({ encoding: 'windows-1252', detected: 'ISO-8859-1' });
  });
});

describe.each(['engine', 'javascript'] as const)('ingest (%s loader)', (csvLoader) => {
  it.each(SAMPLES)('keeps the names of $file', async ({ file, header, name }) => {
    const id = randomUUID();
    copyFileSync(path.join(FIXTURES, file), path.join(temp.dir, id));
    await storage.files.save(
      newUploadRecord({ id, ownerId: 'o', originalFilename: file, filename: id, sizeBytes: 1 }),
    );
    const written = await ingestFile(
      { storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp'), csvLoader },
      { fileId: id, ownerId: 'o', storedName: id, originalFilename: file },
    );
    const row = written.find((f) => f.id === id)!;
    expect(row.status).toBe('PROCESSED');
    expect(row.totalRows).toBe(24);
    expect(row.columnNames).toContain(header);
    const hits = await storage.rows.page({ files: [row], criteria: { [header]: name } }, 0, 50);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.cells[header]!.includes(name))).toBe(true);
  });

  it('reads a UTF-8 file without BOM as UTF-8 when its 64 KB sample ends inside a character', async () => {
    // Chinese text only (3 bytes a character) past the sample, padded until byte 65,536 is not the
    // first byte of a character: the sample then ends inside one.
    const rows = 3_000;
    let pad = '';
    let bytes: Buffer;
    do {
      const body = Array.from({ length: rows }, (_, i) => `张伟${pad},中国科学院${i}\n`).join('');
      bytes = Buffer.from(`作者,期刊\n${body}`, 'utf8');
      pad += 'x';
    } while ((bytes[64 * 1024]! & 0xc0) !== 0x80);
    const id = randomUUID();
    writeFileSync(path.join(temp.dir, id), bytes);
    await storage.files.save(
      newUploadRecord({
        id,
        ownerId: 'o',
        originalFilename: 'cjk.csv',
        filename: id,
        sizeBytes: bytes.length,
      }),
    );
    const written = await ingestFile(
      { storage, originals: originalsIn(temp.dir), tmpDir: path.join(temp.dir, 'tmp'), csvLoader },
      { fileId: id, ownerId: 'o', storedName: id, originalFilename: 'cjk.csv' },
    );
    const row = written.find((f) => f.id === id)!;
    expect(row).toMatchObject({ status: 'PROCESSED', totalRows: rows, columnNames: ['作者', '期刊'] });
    expect(await storage.rows.count({ files: [row], criteria: { 期刊: '中国科学院' } })).toBe(rows);
    const [last] = await storage.rows.page(
      { files: [row], criteria: { 期刊: `中国科学院${rows - 1}` } },
      0,
      5,
    );
    expect(last?.cells).toEqual({ 作者: `张伟${pad.slice(1)}`, 期刊: `中国科学院${rows - 1}` });
  });
});
