import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidFileError, readIsolated, readSpreadsheet, type ParsedRow } from './index.ts';
import { inlineCell, writeWorkbook } from './testing/workbook.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-isolated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURES =
  process.env.SIFT_FIXTURES_DIR ?? fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

async function all(rows: AsyncGenerator<ParsedRow, unknown>) {
  const out: ParsedRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** What readIsolated throws for `file`, or null when it reads to the end. */
async function failure(file: string, limits = { maxHeapMb: 512, idleTimeoutMs: 60_000 }) {
  try {
    await all(readIsolated(file, path.basename(file), undefined, undefined, limits));
    return null;
  } catch (e) {
    return e;
  }
}

describe('readIsolated', () => {
  it('gives the rows readSpreadsheet gives, for CSV, xlsx and legacy xls', async () => {
    const csv = path.join(dir, 'people.csv');
    writeFileSync(
      csv,
      `Name,Email\n${Array.from({ length: 5000 }, (_, i) => `P${i},p${i}@x.org`).join('\n')}\n`,
    );
    const xlsx = await writeWorkbook(
      dir,
      'people.xlsx',
      Array.from(
        { length: 3000 },
        (_, i) => `<row r="${i + 1}">${inlineCell(`A${i + 1}`, `N${i}`)}</row>`,
      ).join(''),
    );
    for (const file of [csv, xlsx, path.join(FIXTURES, 'wos-savedrecs-small.xls')]) {
      const progress = { bytesRead: 0 };
      const isolated = await all(readIsolated(file, path.basename(file), progress));
      expect(isolated).toEqual(await all(readSpreadsheet(file, path.basename(file))));
      expect(isolated.length).toBeGreaterThan(10);
      expect(progress.bytesRead).toBeGreaterThan(0);
    }
  });

  it("passes on the reader's refusal of a file as it is", async () => {
    const file = await writeWorkbook(dir, 'wide.xlsx', `<row r="2">${inlineCell('ZZZZZZZ2', 'x')}</row>`);
    const e = await failure(file);
    expect(e).toBeInstanceOf(InvalidFileError);
    expect((e as InvalidFileError).kind).toBe('unsafe');
    expect((e as Error).message).toMatch(/past column XFD|column/);
  });

  it('fails a file whose reading exhausts its heap, and the process reads the next file', async () => {
    // Shared strings are held in memory while the sheet is read: 3M distinct ones need far more than 32 MB.
    const strings = Array.from({ length: 3_000_000 }, (_, i) => `<si><t>author ${i}</t></si>`).join('');
    const file = await writeWorkbook(dir, 'heavy.xlsx', `<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, {
      'xl/sharedStrings.xml': `<sst>${strings}</sst>`,
    });
    const e = await failure(file, { maxHeapMb: 32, idleTimeoutMs: 60_000 });
    expect(e).toBeInstanceOf(InvalidFileError);
    expect((e as Error).message).toContain('needs more memory than Sift allows one file (32 MB)');
    expect(await failure(file)).toBeNull(); // the same file reads with the default heap
  });

  it('stops a reader that stays silent past the idle timeout', async () => {
    // Opening a FIFO with no writer blocks the reader without end, as a hung parse would.
    const fifo = path.join(dir, 'hung.csv');
    execFileSync('mkfifo', [fifo]);
    try {
      const e = await failure(fifo, { maxHeapMb: 64, idleTimeoutMs: 300 });
      expect(e).toBeInstanceOf(InvalidFileError);
      expect((e as Error).message).toContain('without progress');
    } finally {
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK)); // release the blocked open
    }
  });
});
