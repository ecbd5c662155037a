import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { cellText, trimRow } from './cell-text.ts';
import { detectDelimiter } from './csv.ts';
import { InvalidFileError, readSpreadsheet, uniqueHeaders } from './index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
async function rowsOf(name: string, bytes: Uint8Array | string) {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const out = [];
  for await (const r of readSpreadsheet(file, name)) out.push(r);
  return out;
}

describe('uniqueHeaders', () => {
  it('trims, names blanks by position, and numbers repeats and reserved names', () => {
    expect(uniqueHeaders([' Name ', '', 'Name', 'Name', '__fileName'])).toEqual([
      'Name',
      'Column 2',
      'Name (2)',
      'Name (3)',
      '__fileName (2)',
    ]);
  });
});

describe('cells', () => {
  it('writes dates in ISO form and formulas as their cached result', () => {
    expect(cellText(new Date(Date.UTC(2024, 4, 31)))).toBe('2024-05-31');
    expect(cellText(new Date(Date.UTC(2024, 4, 31, 8, 30)))).toBe('2024-05-31T08:30:00Z');
    expect(cellText({ formula: 'A1*2', result: 42 })).toBe('42');
    expect(cellText({ richText: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
    expect(cellText(true)).toBe('TRUE');
    expect(trimRow(['a', '', 'b', '', ''])).toEqual(['a', '', 'b']);
  });
});

describe('CSV', () => {
  it('detects the delimiter outside quotes', () => {
    expect(detectDelimiter('a;b;"c,d,e"\n1;2;3')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('"x;y;z",b,c')).toBe(',');
  });

  it('reads UTF-8 with a BOM, quoted delimiters, quotes and newlines', async () => {
    const rows = await rowsOf('people.csv', '\uFEFFName,Note\n"Müller, Jörg","said ""hi""\nand left"\n');
    expect(rows.map((r) => r.cells)).toEqual([
      ['Name', 'Note'],
      ['Müller, Jörg', 'said "hi"\nand left'],
    ]);
    expect(rows[0]!.sheet).toBe('people');
  });

  it('reads Windows-1252 and UTF-16 text', async () => {
    const cp1252 = Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a]); // Name\nMüller
    expect((await rowsOf('w.csv', cp1252)).map((r) => r.cells[0])).toEqual(['Name', 'Müller']);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Name;City\nZoë;Zürich\n', 'utf16le'),
    ]);
    expect((await rowsOf('u.csv', utf16)).map((r) => r.cells)).toEqual([
      ['Name', 'City'],
      ['Zoë', 'Zürich'],
    ]);
  });
});

describe('xlsx', () => {
  it('reads numbers as shown: identifiers keep their leading zeros, formats apply, dates are ISO', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Phone', 'Share', 'Amount', 'ISBN', 'Plain', 'Joined']);
    const row = ws.addRow([123456789, 0.5, 1234.5, 9780123456789, 3.25, new Date(Date.UTC(2024, 0, 2))]);
    row.getCell(1).numFmt = '0000000000';
    row.getCell(2).numFmt = '0%';
    row.getCell(3).numFmt = '#,##0.00';
    row.getCell(4).numFmt = '0';
    const rows = await rowsOf('contacts.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(rows[1]!.cells).toEqual(['0123456789', '50%', '1,234.50', '9780123456789', '3.25', '2024-01-02']);
    expect(rows[1]).toMatchObject({ sheet: 'Contacts', rowNumber: 2 });
  });

  it('reads a workbook whose workbook part comes after its sheets in the zip', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('First').addRow(['Name', 'City']);
    wb.getWorksheet('First')!.addRow(['Ada', 'London']);
    wb.addWorksheet('Second').addRow(['Order']);
    const original = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
    // Same parts, fixed order: relationships and shared strings first, xl/workbook.xml last.
    const names = Object.keys(original.files).filter((n) => !original.files[n]!.dir);
    const rank = (n: string) =>
      n === 'xl/workbook.xml' ? 3 : n.includes('worksheets/') ? 2 : n.includes('sharedStrings') ? 1 : 0;
    const reordered = new JSZip();
    for (const n of names.sort((a, b) => rank(a) - rank(b))) {
      reordered.file(n, await original.file(n)!.async('uint8array'));
    }
    const bytes = await reordered.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const rows = await rowsOf('late-workbook.xlsx', bytes);
    expect(rows.map((r) => [r.sheet, ...r.cells])).toEqual([
      ['First', 'Name', 'City'],
      ['First', 'Ada', 'London'],
      ['Second', 'Order'],
    ]);

    // Stored (uncompressed) parts, which exceljs's zip stream can stop early on: read in full too.
    for (let i = 0; i < 5; i++) {
      const stored = await reordered.generateAsync({ type: 'uint8array', compression: 'STORE' });
      const again = await rowsOf(`stored-${i}.xlsx`, stored);
      expect(again.map((r) => [r.sheet, ...r.cells])).toEqual(rows.map((r) => [r.sheet, ...r.cells]));
    }
  });

  it('reads a hand-made workbook: odd part names, prefixed XML, every cell type, phonetic guides left out', async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const r = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const rel = (id: string, type: string, target: string) =>
      `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
    const zip = new JSZip();
    zip.file('_rels/.rels', `<Relationships>${rel('rId1', 'officeDocument', 'xl/book.xml')}</Relationships>`);
    zip.file(
      'xl/_rels/book.xml.rels',
      `<Relationships>${rel('rId1', 'worksheet', 'worksheets/first.xml')}${rel('rId2', 'sharedStrings', '/xl/strings.xml')}` +
        `${rel('rId3', 'styles', 'styles.xml')}${rel('rId4', 'chartsheet', 'chartsheets/sheet1.xml')}</Relationships>`,
    );
    zip.file(
      'xl/book.xml',
      `<x:workbook ${ns} ${r}><x:workbookPr date1904="1"/><x:sheets>` +
        `<x:sheet name="Data &amp; more" sheetId="1" r:id="rId1"/><x:sheet name="Chart" sheetId="2" r:id="rId4"/>` +
        `</x:sheets></x:workbook>`,
    );
    zip.file(
      'xl/strings.xml',
      `<sst><si><t>Name</t></si><si><r><t>Rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>ルビ</t></rPh></si>` +
        `<si><t xml:space="preserve"> padded </t></si></sst>`,
    );
    zip.file(
      'xl/styles.xml',
      `<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="0000"/></numFmts>` +
        `<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>` +
        `<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    );
    zip.file(
      'xl/worksheets/first.xml',
      `<x:worksheet ${ns}><x:sheetData>` +
        `<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:r><x:t>Inline </x:t></x:r><x:r><x:t>runs</x:t></x:r></x:is></x:c><x:c r="C1" t="s"><x:v>2</x:v></x:c></x:row>` +
        `<x:row><x:c t="s"><x:v>1</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c><x:c t="e"><x:v>#N/A</x:v></x:c><x:c s="1"><x:v>0</x:v></x:c>` +
        `<x:c s="2"><x:v>42</x:v></x:c><x:c t="str"><x:f>A1&amp;"x"</x:f><x:v>Namex</x:v></x:c><x:c><x:v>3.5</x:v></x:c><x:c><x:f>B2</x:f></x:c></x:row>` +
        `<x:row r="5"><x:c r="D5"><x:v>1</x:v></x:c></x:row><x:row r="6"/>` +
        `</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>`,
    );
    const rows = await rowsOf('hand-made.xlsx', await zip.generateAsync({ type: 'uint8array' }));
    expect(rows).toEqual([
      { sheet: 'Data & more', rowNumber: 1, cells: ['Name', 'Inline runs', ' padded '] },
      {
        sheet: 'Data & more',
        rowNumber: 2,
        cells: ['Rich text', 'TRUE', '#N/A', '1904-01-01', '0042', 'Namex', '3.5'],
      },
      { sheet: 'Data & more', rowNumber: 5, cells: ['', '', '', '1'] },
    ]);

    // A sheet the workbook lists but the file lacks: the file fails, naming the sheet.
    zip.remove('xl/worksheets/first.xml');
    await expect(rowsOf('no-sheet.xlsx', await zip.generateAsync({ type: 'uint8array' }))).rejects.toThrow(
      /its sheet "Data & more" is missing from the file/,
    );
  });
});

describe('file type checks', () => {
  it('rejects an empty file and content that does not match the extension, with readable messages', async () => {
    await expect(rowsOf('empty.csv', '')).rejects.toThrow(new InvalidFileError('File is empty', 'empty'));
    await expect(rowsOf('fake.xlsx', 'a,b\n1,2')).rejects.toThrow(/not an Excel workbook/);
    await expect(rowsOf('fake.csv', Buffer.from([0x50, 0x4b, 3, 4, 0, 0]))).rejects.toThrow(
      /not a CSV text file/,
    );
    await expect(rowsOf('notes.pdf', 'x')).rejects.toThrow(/not a supported file type/);
  });

  it("reads Web of Science's tab-delimited export (.txt): UTF-8 or UTF-16 with a BOM, a trailing tab a row", async () => {
    const header = ['PT', 'AU', 'TI', 'PY'];
    const records = [
      ['J', 'Müller, K; Sørensen, L', 'Reading exports exactly', '2024'],
      ['J', '张伟; Kim, J', 'A title, with a comma', '2023'],
      // WoS never quotes: a title may start with a quote and hold a tab-free "quoted" part.
      ['J', 'Ng, A', '"Fake news" and its readers', '2022'],
    ];
    // WoS ends every record, not the header, with a tab: one more (empty) field than the header.
    const text = [header.join('\t'), ...records.map((r) => `${r.join('\t')}\t`)].join('\r\n') + '\r\n';
    for (const [name, bytes] of [
      ['savedrecs.txt', Buffer.from(text, 'utf8')],
      ['savedrecs-bom.txt', Buffer.from(`\uFEFF${text}`, 'utf8')],
      ['savedrecs-utf16.txt', Buffer.from(`\uFEFF${text}`, 'utf16le')],
      ['savedrecs.tsv', Buffer.from(text, 'utf8')],
    ] as const) {
      const rows = await rowsOf(name, bytes);
      expect(rows.map((r) => r.cells.slice(0, header.length))).toEqual([header, ...records]);
    }
  });

  it('reads a Web of Science plain-text export (tagged records): one row a record, lists joined', async () => {
    const tagged = [
      'FN Clarivate Analytics Web of Science',
      'VR 1.0',
      'PT J',
      'AU Kowalski, A',
      '   Müller, K',
      'AF Kowalski, Anna',
      '   Müller, Klaus',
      'TI A title that wraps',
      '   onto a second line',
      'EM anna@uw.edu.pl; k.mueller@tum.de',
      'PY 2024',
      'Z8 0',
      'ER',
      '',
      'PT J',
      'AU Kim, J',
      'TI Second',
      'PY 2023',
      'ER',
      '',
      'EF',
      '',
    ].join('\n');
    for (const bytes of [
      Buffer.from(tagged),
      Buffer.from(`\uFEFF${tagged.replaceAll('\n', '\r\n')}`, 'utf16le'),
    ]) {
      const rows = await rowsOf('savedrecs.ciw', bytes);
      expect(rows.map((r) => [r.rowNumber, r.cells])).toEqual([
        [1, ['PT', 'AU', 'AF', 'TI', 'EM', 'PY', 'Z8']],
        [
          2,
          [
            'J',
            'Kowalski, A; Müller, K',
            'Kowalski, Anna; Müller, Klaus',
            'A title that wraps onto a second line',
            'anna@uw.edu.pl; k.mueller@tum.de',
            '2024',
            '0',
          ],
        ],
        [3, ['J', 'Kim, J', '', 'Second', '', '2023', '']],
      ]);
    }
  });

  it('turns a corrupt workbook into a message the user can act on', async () => {
    const zipHeaderOnly = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(64, 7)]);
    await expect(rowsOf('corrupt.xlsx', zipHeaderOnly)).rejects.toThrow(
      /could not be read as an Excel workbook/,
    );
  });

  it('refuses a part whose content is longer or shorter than its zip directory says', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    for (let i = 0; i < 2_000; i++) ws.addRow([`row ${i}`, i, 'some text to inflate']);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await rowsOf('sized.xlsx', bytes)).length).toBe(2_000);

    /** The workbook with the sheet's uncompressed size in its central directory changed by `delta`. */
    const lying = (delta: number) => {
      const copy = Buffer.from(bytes);
      const name = Buffer.from('xl/worksheets/sheet1.xml');
      const centralHeader = Buffer.from([0x50, 0x4b, 1, 2]);
      for (let at = copy.indexOf(centralHeader); at >= 0; at = copy.indexOf(centralHeader, at + 4)) {
        const nameLength = copy.readUInt16LE(at + 28);
        if (copy.subarray(at + 46, at + 46 + nameLength).equals(name)) {
          copy.writeUInt32LE(copy.readUInt32LE(at + 24) + delta, at + 24);
          return copy;
        }
      }
      throw new Error('no central directory entry for the sheet');
    };
    await expect(rowsOf('longer.xlsx', lying(-100))).rejects.toThrow(
      /could not be read as an Excel workbook.*holds more than the \d+ bytes its zip directory gives/,
    );
    await expect(rowsOf('shorter.xlsx', lying(100))).rejects.toThrow(
      /could not be read as an Excel workbook.*holds fewer than the \d+ bytes its zip directory gives/,
    );
  });
});
