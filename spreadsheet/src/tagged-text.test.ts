import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerNames } from './headers.ts';
import { readSpreadsheet } from './read.ts';
import { taggedDialectOf } from './tagged-text.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sift-tagged-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every row of `text` stored as `name`, the header row named as Sift names it. */
async function read(name: string, text: string | Buffer): Promise<{ headers: string[]; rows: string[][] }> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  const rows: string[][] = [];
  for await (const row of readSpreadsheet(file, name)) rows.push(row.cells);
  return { headers: headerNames(rows[0]!), rows: rows.slice(1) };
}

describe('taggedDialectOf', () => {
  it('knows WoS plain text, RIS and MEDLINE from their first lines, and nothing else', () => {
    expect(taggedDialectOf('FN Clarivate Analytics Web of Science\nVR 1.0\nPT J')).toBe('wos');
    expect(taggedDialectOf('\uFEFFTY  - JOUR\r\nAU  - Porter, D.E.')).toBe('ris');
    expect(taggedDialectOf('\nPMID- 30681767\nOWN - NLM')).toBe('medline');
    expect(taggedDialectOf('Authors,Title\nA,B')).toBeNull();
    expect(taggedDialectOf('PT\tAU\tTI\n')).toBeNull();
  });
});

describe('RIS', () => {
  it('reads each record as a row, repeated tags joined with "; ", wrapped lines joined with a space', async () => {
    const ris = [
      'TY  - JOUR',
      'AU  - McCluskey, E.',
      'AU  - Brewin, R.J.W.',
      'TI  - On the Seasonal Dynamics of Phytoplankton',
      '  in Nearshore Waters',
      'PY  - 2022',
      'KW  - chlorophyll-a',
      'KW  - citizen science',
      'N1  - Export Date: 27 November 2023; Cited By: 6; Correspondence Address: R.J.W. Brewin; Exeter; email: r.brewin@exeter.ac.uk',
      'ER  - ',
      '',
      'TY  - BOOK',
      'TI  - Greenhouse gas emissions information for decision making',
      'PY  - 2023',
      'ER  -',
      'TY  - CHAP',
      'AU  - Porter, D.E.',
      'TI  - Observing the ocean — a record without its ER',
      '',
    ].join('\r\n');
    const { headers, rows } = await read('scopus.ris', `\uFEFF${ris}`);
    expect(headers).toEqual(['Type', 'Authors', 'Title', 'Year', 'Keywords', 'Notes']);
    expect(rows).toEqual([
      [
        'JOUR',
        'McCluskey, E.; Brewin, R.J.W.',
        'On the Seasonal Dynamics of Phytoplankton in Nearshore Waters',
        '2022',
        'chlorophyll-a; citizen science',
        'Export Date: 27 November 2023; Cited By: 6; Correspondence Address: R.J.W. Brewin; Exeter; email: r.brewin@exeter.ac.uk',
      ],
      ['BOOK', '', 'Greenhouse gas emissions information for decision making', '2023', '', ''],
      ['CHAP', 'Porter, D.E.', 'Observing the ocean — a record without its ER', '', '', ''],
    ]);
  });

  it('names A1 Authors when a file has no AU (EndNote, Zotero)', async () => {
    const { headers } = await read('endnote.ris', 'TY  - JOUR\nA1  - Smith, John\nT1  - A title\nER  - \n');
    expect(headers).toEqual(['Type', 'Authors', 'Primary Title']);
  });

  it('refuses an .ris file that is not RIS, saying what to do', async () => {
    await expect(read('not.ris', 'Authors,Title\nA,B\n')).rejects.toThrow(
      /is not an RIS file.*Export the records again as RIS/,
    );
  });
});

describe('MEDLINE', () => {
  it('reads records separated by blank lines, four-character tags, six-space continuations', async () => {
    const nbib = [
      'PMID- 31452104',
      'OWN - NLM',
      'TI  - Ocean observing and human health: a',
      '      review.',
      'FAU - Sandifer, Paul A',
      'AU  - Sandifer PA',
      'AD  - College of Charleston, Charleston, SC, USA.',
      'FAU - Brooks, Bryan W',
      'AU  - Brooks BW',
      'AD  - Baylor University, Waco, TX, USA.',
      '      bryan_brooks@baylor.edu.',
      'LID - 10.1016/j.envres.2019.108612 [doi]',
      '',
      'PMID- 31452105',
      'TI  - A second record',
      'FAU - Smith, Anna',
      'AU  - Smith A',
      '',
    ].join('\n');
    const { headers, rows } = await read('pubmed-set.nbib', nbib);
    expect(headers).toEqual([
      'PMID',
      'Owner',
      'Title',
      'Author Full Names',
      'Authors',
      'Affiliation',
      'Location Identifier',
    ]);
    expect(rows).toEqual([
      [
        '31452104',
        'NLM',
        'Ocean observing and human health: a review.',
        'Sandifer, Paul A; Brooks, Bryan W',
        'Sandifer PA; Brooks BW',
        'College of Charleston, Charleston, SC, USA.; Baylor University, Waco, TX, USA. bryan_brooks@baylor.edu.',
        '10.1016/j.envres.2019.108612 [doi]',
      ],
      ['31452105', '', 'A second record', 'Smith, Anna', 'Smith A', '', ''],
    ]);
  });

  it('reads a PubMed file saved as .txt', async () => {
    const { rows } = await read('pubmed-result.txt', 'PMID- 1\nTI  - Only record\n');
    expect(rows).toEqual([['1', 'Only record']]);
  });
});

describe('hostile tagged files', () => {
  it('refuses a field past the text cell cap, whether one line or many', async () => {
    const long = 'x'.repeat(300_000);
    await expect(read('one-line.ris', `TY  - JOUR\nTI  - ${long}\nER  - \n`)).rejects.toThrow(
      /"one-line.ris" was refused: a field holds more than 262,144 characters/,
    );
    const wrapped = `TY  - JOUR\nTI  - start\n${`${'y'.repeat(10_000)}\n`.repeat(30)}ER  - \n`;
    await expect(read('wrapped.ris', wrapped)).rejects.toThrow(
      /"wrapped.ris" was refused: a field holds more than 262,144/,
    );
    // A review's cited references past Excel's 32,767 characters are kept.
    const refs = Array.from({ length: 1_200 }, (_, i) => `CR Author${i} A, 2020, J TEST, V${i}, P1`).join(
      '\n   ',
    );
    const { rows } = await read(
      'review.ciw',
      `FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\n${refs}\nER\nEF\n`,
    );
    expect(rows[0]![1]!.length).toBeGreaterThan(32_767);
  });
});
