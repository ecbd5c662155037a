/** Test helpers: small hand-made xlsx workbooks, written to a directory of the test's own. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';

const rel = (id: string, type: string, target: string) =>
  `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;

/**
 * Writes `dir/name`: a one-sheet workbook ("Data") whose sheetData is `rows`; `extra` parts are
 * added as given (an `xl/sharedStrings.xml` among them is linked from the workbook). Returns its path.
 */
export async function writeWorkbook(
  dir: string,
  name: string,
  rows: string,
  extra: Record<string, string | Buffer> = {},
): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, await workbookBytes(`<worksheet><sheetData>${rows}</sheetData></worksheet>`, extra));
  return file;
}

/** The bytes of a one-sheet workbook ("Data") whose worksheet part is `sheet`, with `extra` parts (see writeWorkbook). */
export async function workbookBytes(
  sheet: string,
  extra: Record<string, string | Buffer> = {},
): Promise<Uint8Array> {
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
  zip.file('xl/worksheets/sheet1.xml', sheet);
  for (const [part, content] of Object.entries(extra)) zip.file(part, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** An inline-string cell at `ref` holding `text` (already XML-escaped). */
export const inlineCell = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
