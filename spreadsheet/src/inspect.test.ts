import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidFileError, inspectUpload, leadingRows } from './index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

/** What `work` rejects with. */
async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => null,
    (e: unknown) => e,
  );
}

const ROOMY = { maxHeapMb: 512, idleTimeoutMs: 60_000 };

describe('inspectUpload', () => {
  it("finds a text file's format, encoding, sample and delimiter in a worker thread", async () => {
    const at = file('people.csv', 'Name;Email\nÅsa;a@x.org\n');
    expect(await inspectUpload(at, 'people.csv', {}, ROOMY)).toEqual({
      format: 'csv',
      sniffed: { encoding: 'utf-8', method: 'utf-8', confidence: 100, sample: 'Name;Email\nÅsa;a@x.org\n' },
      delimiter: ';',
    });
  });

  it('answers InvalidFileError with its kind, as validateSpreadsheet throws it', async () => {
    const e = await rejection(inspectUpload(file('fake.xlsx', 'Name\nA\n'), 'fake.xlsx', {}, ROOMY));
    expect(e).toBeInstanceOf(InvalidFileError);
    expect((e as InvalidFileError).kind).toBe('unsupported');
  });
});

describe('leadingRows', () => {
  it('gives the first records with content, with their record numbers', async () => {
    const at = file('titled.csv', 'Report\n\nName,Notes\nAda,x,,\nBob,y\nCy,z\n');
    expect(await leadingRows(at, 'titled.csv', 'titled', undefined, { rows: 3, chars: 1e6 }, ROOMY)).toEqual([
      { rowNumber: 1, cells: ['Report'] },
      { rowNumber: 3, cells: ['Name', 'Notes'] },
      { rowNumber: 4, cells: ['Ada', 'x'] },
    ]);
  });

  it('refuses a cell past the cap with the cap', async () => {
    const at = file('cell.csv', `Name,Notes\nA,"${'x'.repeat(300_000)}"\n`);
    const e = await rejection(
      leadingRows(at, 'cell.csv', 'cell', undefined, { rows: 10, chars: 1e9 }, ROOMY),
    );
    expect((e as Error).message).toBe('"cell.csv" was refused: a cell holds more than 262,144 characters.');
  });

  it('stops at the character budget', async () => {
    const long = 'y'.repeat(100_000);
    const at = file('long.csv', `Name\n${Array.from({ length: 50 }, () => long).join('\n')}\n`);
    const rows = await leadingRows(at, 'long.csv', 'long', undefined, { rows: 2001, chars: 450_000 }, ROOMY);
    expect(rows.map((r) => r.rowNumber)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  // Run on the calling thread, these would read the records (and take that thread's heap and time).
  it("fails a file whose first records outgrow the thread's heap, and the next file reads", async () => {
    const big = 'z'.repeat(250_000);
    const at = file('heavy.csv', `Name\n${Array.from({ length: 160 }, () => big).join('\n')}\n`);
    const limits = { maxHeapMb: 24, idleTimeoutMs: 60_000 };
    const e = await rejection(
      leadingRows(at, 'heavy.csv', 'heavy', undefined, { rows: 2001, chars: 64e6 }, limits),
    );
    expect(e).toBeInstanceOf(InvalidFileError);
    expect((e as Error).message).toBe(
      '"heavy.csv" could not be read: reading it needs more memory than Sift allows one file (24 MB). Check that it opens in Excel, save it again (or split it into smaller files) and re-upload it.',
    );
    const small = file('small.csv', 'Name\nAda\n');
    expect(
      await leadingRows(small, 'small.csv', 'small', undefined, { rows: 10, chars: 1e6 }, limits),
    ).toHaveLength(2);
  });

  it('stops a read past its time budget', async () => {
    const at = file('slow.csv', `Name,Notes\n${`A,"${'w'.repeat(200_000)}"\n`.repeat(40)}`);
    const e = await rejection(
      leadingRows(
        at,
        'slow.csv',
        'slow',
        undefined,
        { rows: 2001, chars: 1e9 },
        { maxHeapMb: 256, idleTimeoutMs: 20 },
      ),
    );
    expect((e as Error).message).toBe(
      '"slow.csv" could not be read: reading its start took longer than 20 ms. Check that it opens in Excel, save it again (or split it into smaller files) and re-upload it.',
    );
  });
});
