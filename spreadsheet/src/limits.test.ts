import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { columnOf } from './xlsx-worksheet.ts';
import { readSpreadsheet, SHEET_LIMITS, validateSpreadsheet } from './index.ts';
import { inlineCell, writeWorkbook } from './testing/workbook.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-sheet workbook ("Data") in this test's directory (see writeWorkbook). */
const workbook = (name: string, rows: string, extra: Record<string, string | Buffer> = {}) =>
  writeWorkbook(dir, name, rows, extra);

async function read(file: string) {
  const rows = [];
  for await (const row of readSpreadsheet(file, path.basename(file))) rows.push(row);
  return rows;
}

const cell = inlineCell;

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

  it('refuses rows spanning far more places than cells, and reads a sparse sheet of real data', async () => {
    // One cell in column XFD a row: 16,384 places for 1 cell.
    const far = Array.from({ length: 100 }, (_, i) => `<row r="${i + 2}">${cell(`XFD${i + 2}`, 'x')}</row>`);
    const file = await workbook('far.xlsx', `<row r="1">${cell('A1', 'Name')}</row>${far.join('')}`);
    await expect(read(file)).rejects.toThrow(
      /^"far\.xlsx" was refused: its sheet "Data" holds 63 cells spread over 1,015,809 places in its rows \(cells far apart, such as one in column XFD of row 63\): delete the empty columns between them and upload it again\.$/,
    );
    // A survey's answers: 20,000 rows of 60 columns, 1 in 50 filled (3 cells a row on average).
    const rows = Array.from({ length: 20_000 }, (_, i) => {
      const r = i + 2;
      return `<row r="${r}">${cell(`A${r}`, 'id')}${cell(`AZ${r}`, 'y')}${i % 2 ? cell(`BH${r}`, 'z') : ''}</row>`;
    });
    const sparse = await workbook('sparse.xlsx', `<row r="1">${cell('A1', 'Name')}</row>${rows.join('')}`);
    expect(await read(sparse)).toHaveLength(20_001);
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
  it("refuses styles past Excel's 65,490 cell formats, counted before they are kept", async () => {
    // Ids that vary, so the part does not compress like a zip bomb (refused for that alone).
    const id = (i: number) => (i * 7919) % 1_000_003;
    const styles = (xfs: number, fmts = 0) =>
      `<styleSheet><numFmts>${Array.from({ length: fmts }, (_, i) => `<numFmt numFmtId="${id(i)}" formatCode="0.0"/>`).join('')}</numFmts>` +
      `<cellXfs>${Array.from({ length: xfs }, (_, i) => `<xf numFmtId="${id(i)}"/>`).join('')}</cellXfs></styleSheet>`;
    const rows = `<row r="1">${cell('A1', 'Name')}</row>`;
    const most = await workbook('most.xlsx', rows, { 'xl/styles.xml': styles(SHEET_LIMITS.maxCellFormats) });
    expect((await read(most)).map((r) => r.cells)).toEqual([['Name']]);
    const xfs = await workbook('xfs.xlsx', rows, {
      'xl/styles.xml': styles(SHEET_LIMITS.maxCellFormats + 1),
    });
    await expect(read(xfs)).rejects.toThrow(
      '"xfs.xlsx" was refused: its styles hold more than 65,490 cell formats, Excel\'s limit.',
    );
    const fmts = await workbook('fmts.xlsx', rows, {
      'xl/styles.xml': styles(1, SHEET_LIMITS.maxCellFormats + 1),
    });
    await expect(read(fmts)).rejects.toThrow(
      '"fmts.xlsx" was refused: its styles hold more than 65,490 number formats, Excel\'s limit.',
    );
  });

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
