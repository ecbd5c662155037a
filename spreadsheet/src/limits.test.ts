import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { columnOf } from './xlsx-worksheet.ts';
import { readSpreadsheet, SHEET_LIMITS, validateSpreadsheet } from './index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rel = (id: string, type: string, target: string) =>
  `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;

/** A one-sheet workbook ("Data") whose sheetData is `rows`; `extra` parts are added as given. */
async function workbook(name: string, rows: string, extra: Record<string, string | Buffer> = {}) {
  const zip = new JSZip();
  zip.file(
    '_rels/.rels',
    `<Relationships>${rel('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<Relationships>${rel('rId1', 'worksheet', 'worksheets/sheet1.xml')}${'xl/sharedStrings.xml' in extra ? rel('rId2', 'sharedStrings', 'sharedStrings.xml') : ''}</Relationships>`,
  );
  zip.file(
    'xl/workbook.xml',
    `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file('xl/worksheets/sheet1.xml', `<worksheet><sheetData>${rows}</sheetData></worksheet>`);
  for (const [part, content] of Object.entries(extra)) zip.file(part, content);
  const file = path.join(dir, name);
  writeFileSync(file, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return file;
}

async function read(file: string) {
  const rows = [];
  for await (const row of readSpreadsheet(file, path.basename(file))) rows.push(row);
  return rows;
}

const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

describe("Excel's limits", () => {
  it('reads a cell in the last column and the last row', async () => {
    const file = await workbook(
      'edges.xlsx',
      `<row r="1">${cell('A1', 'Name')}${cell('XFD1', 'Last')}</row><row r="1048576">${cell('A1048576', 'x')}</row>`,
    );
    const rows = await read(file);
    expect(rows.map((r) => [r.rowNumber, r.cells.length])).toEqual([
      [1, SHEET_LIMITS.maxColumns],
      [SHEET_LIMITS.maxRows, 1],
    ]);
  });

  it('refuses a cell past column XFD, however long its reference', async () => {
    for (const ref of ['XFE2', 'ZZZZZZZ2', `${'Z'.repeat(10_000)}2`]) {
      const file = await workbook('wide.xlsx', `<row r="2">${cell(ref, 'x')}</row>`);
      await expect(read(file)).rejects.toThrow(
        `"wide.xlsx" was refused: its sheet "Data" has a cell ${ref} past Excel's last column XFD (16,384 columns).`,
      );
    }
    expect(columnOf('Z'.repeat(1_000))).toBeLessThanOrEqual(26 * (SHEET_LIMITS.maxColumns + 1));
  });

  it('refuses a row past 1,048,576', async () => {
    const file = await workbook('tall.xlsx', `<row r="99999999">${cell('A99999999', 'x')}</row>`);
    await expect(read(file)).rejects.toThrow(
      `"tall.xlsx" was refused: its sheet "Data" has a row 99,999,999, past Excel's last row 1,048,576.`,
    );
  });

  it('reads a cell of 32,767 characters and refuses one of 32,768', async () => {
    const ok = await workbook('full.xlsx', `<row r="1">${cell('A1', 'a'.repeat(32_767))}</row>`);
    expect((await read(ok))[0]!.cells[0]).toHaveLength(32_767);
    const big = await workbook('over.xlsx', `<row r="1">${cell('A1', 'a'.repeat(32_768))}</row>`);
    await expect(read(big)).rejects.toThrow(
      `"over.xlsx" was refused: a cell of its sheet "Data" (row 1) holds 32,768 characters, more than the 32,767 Excel allows in a cell.`,
    );
  });
});

describe('memory bombs', () => {
  it('refuses a part that expands far beyond its size, even beside parts that do not compress', async () => {
    const strings = `<sst>${'<si><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></si>'.repeat(300_000)}</sst>`;
    const file = await workbook('bomb.xlsx', `<row r="1">${cell('A1', 'x')}</row>`, {
      'xl/sharedStrings.xml': strings,
      // Random bytes do not compress: the archive as a whole looks ordinary.
      'xl/media/padding.bin': randomBytes(2 * 2 ** 20),
    });
    await expect(validateSpreadsheet(file, 'bomb.xlsx')).rejects.toThrow(
      /^"bomb\.xlsx" was refused: its part xl\/sharedStrings\.xml would expand to \d+ MB, too much for its size \(a possible zip bomb\)\.$/,
    );
  });

  it('refuses a legacy .xls larger than it may be, before reading it', async () => {
    const file = path.join(dir, 'huge.xls');
    writeFileSync(file, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    truncateSync(file, SHEET_LIMITS.maxXlsBytes + 1);
    await expect(validateSpreadsheet(file, 'huge.xls')).rejects.toThrow(
      '"huge.xls" was refused: a legacy .xls workbook may be at most 100 MB. Save it as .xlsx in Excel and upload that instead.',
    );
  });
});
