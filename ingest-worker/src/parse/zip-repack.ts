import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Entry, ZipFile } from 'yauzl';
import yazl from 'yazl';
import { openEntry, openZip } from './zip-scan.ts';

/** Parts exceljs needs before it can read a worksheet in place, in the order they are written first. */
const LEADING_PARTS = [
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/styles.xml',
  'xl/sharedStrings.xml',
];
const isWorksheet = (name: string) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name);

/**
 * True when exceljs's streaming reader is known to misread the workbook: a part stored without
 * compression (its zip stream can end early), or shared strings placed before the worksheets while
 * the workbook part comes after them (it then intermittently stops before the workbook part). Both
 * were seen losing sheets without an error.
 */
export function needsRepack(
  entries: { fileName: string; compressionMethod: number; uncompressedSize: number }[],
) {
  if (entries.some((e) => e.compressionMethod === 0 && e.uncompressedSize > 0)) return true;
  const at = (name: string) => entries.findIndex((e) => e.fileName === name);
  const firstSheet = entries.findIndex((e) => isWorksheet(e.fileName));
  if (firstSheet < 0) return false;
  const strings = at('xl/sharedStrings.xml');
  return strings >= 0 && strings < firstSheet && at('xl/workbook.xml') > firstSheet;
}

/**
 * Rewrites a workbook exceljs would misread (see {@link needsRepack}) with every part deflated and
 * the parts it needs first (workbook, its relationships, styles, shared strings) ahead of the
 * worksheets, so it reads each worksheet in place. Parts are read through the central directory.
 * Returns the copy (the caller calls `dispose` when done), or null when the file is read as it is.
 */
export async function repackedCopyIfNeeded(
  filePath: string,
): Promise<{ path: string; dispose: () => Promise<void> } | null> {
  const zip = await openZip(filePath);
  try {
    const entries = (await list(zip)).filter((e) => !e.fileName.endsWith('/'));
    if (!needsRepack(entries)) return null;
    const rank = (e: Entry) => {
      const i = LEADING_PARTS.indexOf(e.fileName);
      return i >= 0 ? i : LEADING_PARTS.length;
    };
    const ordered = entries.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i);
    const dir = await mkdtemp(path.join(tmpdir(), 'sift-xlsx-'));
    const copy = path.join(dir, 'workbook.xlsx');
    const out = new yazl.ZipFile();
    const written = pipeline(out.outputStream, createWriteStream(copy));
    for (const { e } of ordered) out.addReadStream(await openEntry(zip, e), e.fileName, { compress: true });
    out.end();
    await written;
    return { path: copy, dispose: () => rm(dir, { recursive: true, force: true }) };
  } finally {
    zip.close();
  }
}

function list(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (e: Entry) => {
      entries.push(e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}
