import { SSF } from '@e965/xlsx';
import type { ParsedRow } from './types.ts';
import { cellText } from './cell-text.ts';
import { shownText } from './number-format.ts';
import { XmlScanner, type XmlAttributes } from './xml-scanner.ts';
import { count, LimitError, SHEET_LIMITS } from './limits.ts';
import { local, RunText, type WorkbookParts } from './xlsx-workbook.ts';

/**
 * Turns a worksheet part's XML, written chunk by chunk, into rows: `take()` hands over the rows
 * completed so far. Cells are placed by their reference (`r="C7"`), or after the previous cell when
 * it is missing.
 */
export class WorksheetRows {
  readonly #parser = new XmlScanner({
    open: (name, attributes) => this.#open(name, attributes),
    text: (t) => {
      if (this.#inValue) this.#value.push(t);
      else if (this.#inInline) this.#inline.text(t);
    },
    close: (name) => this.#close(local(name)),
  });
  #ready: ParsedRow[] = [];
  #inSheetData = false;
  #rowNumber = 0;
  #cells: string[] = [];
  #column = 0;
  /** Cells that hold something, and cells the rows span (their arrays' lengths), so far. */
  #present = 0;
  #spanned = 0;
  /** The current cell's type (`t`) and style (`s`); its value text and inline string. */
  #type = '';
  #style = 0;
  #value: string[] = [];
  #inValue = false;
  #inInline = false;
  readonly #inline = new RunText();

  readonly sheet: string;
  private readonly book: WorkbookParts;

  constructor(sheet: string, book: WorkbookParts) {
    this.sheet = sheet;
    this.book = book;
  }

  write(chunk: string): void {
    this.#parser.write(chunk);
  }

  close(): void {
    this.#parser.close();
  }

  take(): ParsedRow[] {
    const rows = this.#ready;
    this.#ready = [];
    return rows;
  }

  #open(tagName: string, attributes: XmlAttributes): void {
    const name = local(tagName);
    if (!this.#inSheetData) {
      if (name === 'sheetData') this.#inSheetData = true;
      return;
    }
    switch (name) {
      case 'row': {
        const r = Number(attributes.get('r'));
        this.#rowNumber = Number.isInteger(r) && r > 0 ? r : this.#rowNumber + 1;
        if (this.#rowNumber > SHEET_LIMITS.maxRows) {
          throw new LimitError(
            `its sheet "${this.sheet}" has a row ${count(this.#rowNumber)}, past Excel's last row ${count(SHEET_LIMITS.maxRows)}`,
          );
        }
        this.#cells = [];
        this.#column = 0;
        break;
      }
      case 'c': {
        const ref = attributes.get('r');
        this.#column = ref ? columnOf(ref) : this.#column + 1;
        if (this.#column > SHEET_LIMITS.maxColumns) {
          throw new LimitError(
            `its sheet "${this.sheet}" has a cell ${ref ?? `in column ${count(this.#column)}`} past Excel's last column XFD (${count(SHEET_LIMITS.maxColumns)} columns)`,
          );
        }
        this.#type = attributes.get('t') ?? '';
        const style = attributes.get('s');
        this.#style = style ? Number(style) : 0;
        this.#value = [];
        break;
      }
      case 'v':
        this.#inValue = true;
        break;
      case 'is':
        this.#inInline = true;
        this.#inline.start();
        break;
      default:
        if (this.#inInline) this.#inline.open(name);
    }
  }

  #close(name: string): void {
    if (!this.#inSheetData) return;
    switch (name) {
      case 'v':
        this.#inValue = false;
        break;
      case 'is':
        this.#inInline = false;
        this.#value = [this.#inline.end()];
        break;
      case 'c': {
        const text = this.#cellText();
        if (text.length > SHEET_LIMITS.maxCellChars) {
          throw new LimitError(
            `a cell of its sheet "${this.sheet}" (row ${count(this.#rowNumber)}) holds ${count(text.length)} characters, more than the ${count(SHEET_LIMITS.maxCellChars)} Excel allows in a cell`,
          );
        }
        if (text !== '') {
          for (let i = this.#cells.length; i < this.#column - 1; i++) this.#cells.push('');
          this.#cells[this.#column - 1] = text;
          this.#present++;
        }
        break;
      }
      case 'row':
        if (this.#cells.length) {
          this.#spanned += this.#cells.length;
          this.#checkSpread();
          this.#ready.push({ sheet: this.sheet, rowNumber: this.#rowNumber, cells: this.#cells });
        }
        this.#cells = [];
        break;
      case 'sheetData':
        this.#inSheetData = false;
        break;
      default:
        if (this.#inInline) this.#inline.close(name);
    }
  }

  /** Refuses rows that span far more cells than they hold (SHEET_LIMITS.maxSpread). */
  #checkSpread(): void {
    const { maxSpread, spreadFromCells } = SHEET_LIMITS;
    if (this.#spanned <= spreadFromCells || this.#spanned <= this.#present * maxSpread) return;
    throw new LimitError(
      `its sheet "${this.sheet}" holds ${count(this.#present)} cells spread over ${count(this.#spanned)} places in its rows (cells far apart, such as one in column ${columnName(this.#cells.length)} of row ${count(this.#rowNumber)}): delete the empty columns between them and upload it again`,
    );
  }

  #cellText(): string {
    const raw = this.#value.length === 1 ? this.#value[0]! : this.#value.join('');
    switch (this.#type) {
      case 's':
        return this.book.sharedStrings[Number(raw)] ?? '';
      case 'inlineStr':
      case 'str':
      case 'e':
        return raw;
      case 'b':
        return raw === '' ? '' : cellText(raw === '1' || raw === 'true');
      case 'd':
        return raw === '' ? '' : cellText(new Date(raw));
      default: {
        if (raw === '') return '';
        const n = Number.parseFloat(raw);
        if (Number.isNaN(n)) return raw;
        const format = this.book.styleFormats[this.#style];
        if (format && format !== 'General' && isDateFormat(format)) {
          return cellText(serialToDate(n, this.book.date1904));
        }
        return shownText(n, format);
      }
    }
  }
}

const dateFormats = new Map<string, boolean>();
/** True for a number format that shows a date or time (cached: a sheet has a handful of formats). */
function isDateFormat(format: string): boolean {
  let is = dateFormats.get(format);
  if (is === undefined) {
    is = SSF.is_date(format) === true;
    dateFormats.set(format, is);
  }
  return is;
}

/** An Excel date serial (days since 1899-12-30, or 1904-01-01) as a UTC date, to the millisecond. */
function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

/**
 * The 1-based column of a cell reference (`C7` → 3, `XFD1` → 16384). Stops counting once past
 * Excel's last column, so a reference of any length gives a number just above it.
 *
 * @param ref - a cell reference
 * @returns the column number
 */
export function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length && column <= SHEET_LIMITS.maxColumns; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) column = column * 26 + (c - 64);
    else if (c >= 97 && c <= 122) column = column * 26 + (c - 96);
    else break;
  }
  return column;
}

/** The letters of a 1-based column number (`1` → `A`, `16384` → `XFD`). */
function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
