import { describe, expect, it } from 'vitest';
import { needsRepack } from './zip-repack.ts';

const parts = (names: string[], method = 8) =>
  names.map((fileName) => ({ fileName, compressionMethod: method, uncompressedSize: 100 }));

describe('needsRepack', () => {
  it('leaves the orders exceljs reads reliably alone (Excel’s and exceljs’s own)', () => {
    const excel = [
      '[Content_Types].xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
      'xl/styles.xml',
      'xl/sharedStrings.xml',
    ];
    const exceljs = [
      '[Content_Types].xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/workbook.xml',
    ];
    expect(needsRepack(parts(excel))).toBe(false);
    expect(needsRepack(parts(exceljs))).toBe(false);
  });

  it('repacks stored parts, and shared strings before sheets with the workbook part after them', () => {
    expect(needsRepack(parts(['xl/workbook.xml', 'xl/worksheets/sheet1.xml'], 0))).toBe(true);
    expect(
      needsRepack(
        parts([
          'xl/_rels/workbook.xml.rels',
          'xl/sharedStrings.xml',
          'xl/worksheets/sheet1.xml',
          'xl/workbook.xml',
        ]),
      ),
    ).toBe(true);
  });
});
