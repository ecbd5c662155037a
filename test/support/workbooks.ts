/** Workbooks for tests that feed Sift's xlsx reader hostile or unusual parts. */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

/** A one-sheet workbook ("Sheet1", header row `Name`) as ExcelJS writes it, opened for changes. */
export async function workbookZip(): Promise<JSZip> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').addRow(['Name']).commit();
  return JSZip.loadAsync(await wb.xlsx.writeBuffer());
}

/**
 * Adds `rows` (worksheet XML: `<row r="2">…</row>…`) after the rows of the workbook's first sheet.
 *
 * @param zip - a workbook from workbookZip
 * @param rows - the rows' XML
 */
export async function addRows(zip: JSZip, rows: string): Promise<void> {
  const sheet = Object.keys(zip.files).find((f) => /worksheets\/sheet1\.xml$/.test(f))!;
  const xml = await zip.file(sheet)!.async('string');
  zip.file(sheet, xml.replace('</sheetData>', `${rows}</sheetData>`));
}

/** The workbook's bytes, deflated at level 9 as Excel writes them. */
export const zipBytes = (zip: JSZip): Promise<Uint8Array> =>
  zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
