import type { Writable } from 'node:stream';
import { rowXml } from '@sift/shared/ooxml';
import { ZipStreamWriter } from './zip-writer.ts';

/** Rows per sheet of an xlsx export (Excel's limit is 1,048,576 including the header row). */
export const XLSX_ROWS_PER_SHEET = 1_000_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
/** Deflate level: 1 is ~3× faster than the default 6 on this XML for ~25 % more bytes. */
const COMPRESSION_LEVEL = 1;

/**
 * Writes an .xlsx workbook to `out` as a stream, without holding it: worksheets of rows given as
 * `<row>` XML lines (rowXml, or the engine's RowsRepository.xlsxRows), deflated into the zip as
 * they come (ZipStreamWriter; the deflating runs on libuv's thread pool). Every value is an inline string,
 * never a formula. A sheet holds at most `rowsPerSheet` rows after its optional header row;
 * further rows go to `Results 2`, `Results 3`… `npm run bench:search` compares it with exceljs's
 * streaming writer, which Sift used before.
 *
 * Usage: `addRows` as often as needed (it waits while `out` is full), then `finish`; if `out`
 * fails or closes early, the pending and later calls reject with that error.
 */
export class XlsxStreamWriter {
  readonly #zip: ZipStreamWriter;
  /** A worksheet entry is open in the zip. */
  #sheet = false;
  #finished = false;
  #sheets = 0;
  #inSheet = 0;

  constructor(
    out: Writable,
    /** The header row's XML line (rowXml, row 1), repeated at the top of every sheet; null for none. */
    private readonly header: string | null,
    /** Rows a sheet holds after its header row. */
    private readonly rowsPerSheet = XLSX_ROWS_PER_SHEET,
  ) {
    this.#zip = new ZipStreamWriter(out, { level: COMPRESSION_LEVEL });
  }

  /** Appends one row of cells (row references are the writer's). */
  async addRow(cells: string[]): Promise<void> {
    if (!this.#sheet || this.#inSheet >= this.rowsPerSheet) await this.#startSheet();
    await this.#write(rowXml(cells, this.#inSheet + (this.header ? 2 : 1)));
    this.#inSheet++;
  }

  /**
   * Appends `count` rows given as `xml`, exactly `count` lines of `<row>` elements numbered for
   * their sheet (as RowsRepository.xlsxRows does), starting new sheets as they fill.
   */
  async addRows(xml: string, count: number): Promise<void> {
    let rest = xml;
    let left = count;
    while (left > 0) {
      if (!this.#sheet || this.#inSheet >= this.rowsPerSheet) await this.#startSheet();
      const room = this.rowsPerSheet - this.#inSheet;
      if (left <= room) {
        await this.#write(rest);
        this.#inSheet += left;
        return;
      }
      let cut = -1;
      for (let i = 0; i < room; i++) cut = rest.indexOf('\n', cut + 1);
      await this.#write(rest.slice(0, cut + 1));
      this.#inSheet += room;
      rest = rest.slice(cut + 1);
      left -= room;
    }
  }

  /**
   * Adds a whole sheet whose rows (`count` `<row>` lines numbered for the sheet, as
   * RowsRepository.xlsxSheetFiles writes them) are read from `rows`, after the header row.
   */
  async addSheet(rows: AsyncIterable<Buffer | string>, count: number): Promise<void> {
    await this.#startSheet();
    for await (const chunk of rows) await this.#write(chunk);
    this.#inSheet = count;
  }

  /** Ends the last sheet, writes the workbook's other parts and waits until `out` has everything. */
  async finish(): Promise<void> {
    if (!this.#sheet) await this.#startSheet(); // an export without rows still has a sheet
    await this.#endSheet();
    const sheets = Array.from({ length: this.#sheets }, (_, i) => i + 1);
    const name = (i: number) => (i === 1 ? 'Results' : `Results ${i}`);
    const add = (part: string, xml: string) => this.#zip.addBuffer(part, XML_HEAD + xml);
    await add(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets
        .map((i) => `<sheet name="${name(i)}" sheetId="${i}" r:id="rId${i}"/>`)
        .join('')}</sheets></workbook>`,
    );
    await add(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG_REL_NS}">${sheets
        .map(
          (i) => `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`,
        )
        .join(
          '',
        )}<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    );
    await add('xl/styles.xml', STYLES);
    await add(
      '_rels/.rels',
      `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    await add(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/>` +
        sheets
          .map(
            (i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${TYPE}.worksheet+xml"/>`,
          )
          .join('') +
        `</Types>`,
    );
    await this.#zip.finish();
    this.#finished = true;
  }

  /** After a failure: stops writing and destroys `out` (nothing once finished). */
  async abandon(): Promise<void> {
    if (this.#finished) return;
    this.#zip.destroy(new Error('The workbook was abandoned before it was complete'));
  }

  async #startSheet(): Promise<void> {
    await this.#endSheet();
    this.#sheets++;
    this.#inSheet = 0;
    await this.#zip.startEntry(`xl/worksheets/sheet${this.#sheets}.xml`);
    this.#sheet = true;
    await this.#write(`${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>${this.header ?? ''}`);
  }

  async #endSheet(): Promise<void> {
    if (!this.#sheet) return;
    this.#sheet = false;
    await this.#zip.write('</sheetData></worksheet>');
    await this.#zip.endEntry();
  }

  /** Writes to the current sheet, waiting while it is full; rejects once `out` has failed. */
  async #write(text: string | Buffer): Promise<void> {
    await this.#zip.write(text);
  }
}

/** The smallest stylesheet Excel accepts without repairing the file: one font, fill, border and style. */
const STYLES =
  `<styleSheet xmlns="${MAIN_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
  `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
  `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>` +
  `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
