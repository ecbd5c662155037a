import { open } from 'node:fs/promises';
import path from 'node:path';
import { InvalidFileError } from './errors.ts';
import { looksLikeBibtex } from './bibtex.ts';
import { utf16ByZeros } from './csv.ts';
import { taggedDialectOf, type TaggedDialect } from './tagged-text.ts';

/**
 * How a file is read: delimited text, an xlsx or legacy xls workbook, or tagged records (Web of
 * Science plain text, RIS, PubMed MEDLINE), or BibTeX.
 */
export type SpreadsheetFormat = 'csv' | 'xlsx' | 'xls' | 'wos-text' | 'ris' | 'medline' | 'bibtex';

/** The tagged-record formats and the dialect each is read as. */
export const TAGGED_FORMATS: Readonly<Partial<Record<SpreadsheetFormat, TaggedDialect>>> = {
  'wos-text': 'wos',
  ris: 'ris',
  medline: 'medline',
};

const FORMAT_OF_DIALECT: Readonly<Record<TaggedDialect, SpreadsheetFormat>> = {
  wos: 'wos-text',
  ris: 'ris',
  medline: 'medline',
};

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(buf: Buffer, magic: number[]): boolean {
  return magic.every((b, i) => buf[i] === b);
}

/**
 * Decides how to read a stored upload from its content (magic bytes), checked against the name the
 * user gave it. Throws InvalidFileError with a message the user can act on: empty file, unknown
 * extension, or content that is not what the extension says.
 *
 * @param filePath - the stored upload
 * @param originalName - the name the user gave it
 * @returns the format
 * @throws InvalidFileError (empty, unknown extension, content unlike the extension)
 */
export async function detectFormat(filePath: string, originalName: string): Promise<SpreadsheetFormat> {
  const ext = path.extname(originalName).toLowerCase();
  const fh = await open(filePath, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(size, 4096));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  if (size === 0) throw new InvalidFileError('File is empty', 'empty');
  const isZip = startsWith(head, ZIP);
  const isOle = startsWith(head, OLE);
  // A workbook saved under the other Excel extension is read as what its content is.
  const notWorkbook = () =>
    new InvalidFileError(
      `"${originalName}" is not an Excel workbook: its content is not in the ${ext} format. Open it in Excel and save it again as .xlsx.`,
      'unsupported',
    );
  switch (ext) {
    case '.xlsx':
    case '.xls':
      if (isZip) return 'xlsx';
      if (isOle) return 'xls';
      throw notWorkbook();
    case '.csv':
    case '.txt':
    case '.tsv':
    case '.ciw':
    case '.ris':
    case '.nbib':
    case '.bib': {
      const bom16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
      const byZeros = bom16 ? null : utf16ByZeros(head);
      const utf16 = bom16 || byZeros !== null;
      if (isZip || isOle || (!utf16 && head.includes(0))) {
        throw new InvalidFileError(
          `"${originalName}" is not a ${ext === '.csv' ? 'CSV' : 'delimited'} text file. If it is an Excel workbook, upload it with its .xlsx or .xls name.`,
          'unsupported',
        );
      }
      const text = new TextDecoder(
        byZeros ?? (bom16 ? (head[0] === 0xff ? 'utf-16le' : 'utf-16be') : 'utf-8'),
      ).decode(head);
      const dialect = taggedDialectOf(text);
      if (dialect) return FORMAT_OF_DIALECT[dialect];
      if (ext === '.bib') {
        if (looksLikeBibtex(text)) return 'bibtex';
        throw new InvalidFileError(
          `"${originalName}" is not a BibTeX file: it has no entry such as "@article{". Export the records again as BibTeX.`,
          'unsupported',
        );
      }
      if (ext === '.ris' || ext === '.nbib') {
        throw new InvalidFileError(
          ext === '.ris'
            ? `"${originalName}" is not an RIS file: it does not start with a "TY  - " line. Export the records again as RIS.`
            : `"${originalName}" is not a PubMed file: it does not start with a "PMID- " line. Save the records again from PubMed in PubMed (MEDLINE) format.`,
          'unsupported',
        );
      }
      return 'csv';
    }
    default:
      throw new InvalidFileError(
        `"${originalName}" is not a supported file type. Please upload Excel (.xlsx, .xls) or CSV files.`,
        'unsupported',
      );
  }
}
