import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endsRecordsWithTab } from '@sift/spreadsheet';
import { recordEndsUniform, recordStartsWithBlank, tabRecordEnd } from './csv-engine-loader.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-blank-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(bytes: Buffer): string {
  const f = path.join(dir, `${n++}.csv`);
  writeFileSync(f, bytes);
  return f;
}
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();

describe('recordStartsWithBlank', () => {
  it('finds a record starting with a space or tab, in every encoding, and nothing else', async () => {
    const cases: [Buffer, 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252', boolean][] = [
      [Buffer.from('A,B\n1,2\n'), 'utf-8', false],
      [Buffer.from('A,B\n1,  2 \n'), 'utf-8', false],
      [Buffer.from('A,B\n 1,2\n'), 'utf-8', true],
      [Buffer.from('A,B\r\n\t1,2\r\n'), 'utf-8', true],
      [Buffer.from(' A,B\n1,2\n'), 'utf-8', true],
      [Buffer.from('\uFEFF A,B\n'), 'utf-8', true],
      [Buffer.from('\uFEFFA,B\n'), 'utf-8', false],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('A,B\n 1,2\n', 'utf16le')]), 'utf-16le', true],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('A,B\n1, 2\n', 'utf16le')]), 'utf-16le', false],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('A,B\n 1,2\n')]), 'utf-16be', true],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('A,B\n1,2\n')]), 'utf-16be', false],
      [Buffer.from([0x41, 0x0a, 0x20, 0xfc, 0x0a]), 'windows-1252', true],
    ];
    for (const [bytes, encoding, expected] of cases) {
      expect(
        await recordStartsWithBlank(file(bytes), encoding),
        JSON.stringify(bytes.toString('latin1')),
      ).toBe(expected);
    }
  });

  it('finds it across the seam between two read chunks', async () => {
    const head = 'x'.repeat(1024 * 1024 - 1);
    expect(await recordStartsWithBlank(file(Buffer.from(`${head}\n y\n`)), 'utf-8')).toBe(true);
    expect(await recordStartsWithBlank(file(Buffer.from(`${head}\ny\n`)), 'utf-8')).toBe(false);
  });
});

describe('tabRecordEnd and recordEndsUniform', () => {
  it('takes the record end from the first line break, and refuses bare CR', () => {
    expect(tabRecordEnd('A\tB\r\n1\t2')).toBe('\r\n');
    expect(tabRecordEnd('A\tB\n1\t2\r\n')).toBe('\n');
    expect(tabRecordEnd('A\tB')).toBe('\n');
    expect(tabRecordEnd('A\tB\r1\t2\r')).toBeNull();
  });

  it('finds a line break other than the record end, in every encoding', async () => {
    const le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const be = (s: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(s)]);
    const cases: [Buffer, 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252', '\n' | '\r\n', boolean][] = [
      [Buffer.from('A\tB\r\n1\t2\r\n'), 'utf-8', '\r\n', true],
      [Buffer.from('A\tB\r\n1\t2\n3\t4\r\n'), 'utf-8', '\r\n', false],
      [Buffer.from('\nA\tB\r\n'), 'utf-8', '\r\n', false],
      [Buffer.from('A\tB\n1\t2\n'), 'utf-8', '\n', true],
      [Buffer.from('A\tB\n1\t"2\r\n"\n'), 'utf-8', '\n', false],
      [le('A\tB\r\n1\t2\r\n'), 'utf-16le', '\r\n', true],
      [le('A\tB\r\n1\t2\n'), 'utf-16le', '\r\n', false],
      // U+0A0D and U+0D0A hold the bytes of CR and LF, straddling code units: not line breaks.
      [le('A\tB\n\u0a0d\u0d0a\t2\n'), 'utf-16le', '\n', true],
      [be('A\tB\r\n1\t2\r\n'), 'utf-16be', '\r\n', true],
      [be('A\tB\n1\t2\r\n'), 'utf-16be', '\n', false],
      [Buffer.from([0x41, 0x0d, 0x0a, 0xfc, 0x0a]), 'windows-1252', '\r\n', false],
    ];
    for (const [bytes, encoding, end, expected] of cases) {
      expect(
        await recordEndsUniform(file(bytes), encoding, end),
        JSON.stringify([bytes.toString('latin1'), end]),
      ).toBe(expected);
    }
  });

  it('sees a CR in the chunk before an LF', async () => {
    const head = 'x'.repeat(1024 * 1024 - 1);
    expect(await recordEndsUniform(file(Buffer.from(`${head}\r\ny\r\n`)), 'utf-8', '\r\n')).toBe(true);
    expect(await recordEndsUniform(file(Buffer.from(`${head}x\ny\r\n`)), 'utf-8', '\r\n')).toBe(false);
  });
});

describe('endsRecordsWithTab', () => {
  it("finds Web of Science's trailing tab, not a record whose last field is empty", () => {
    expect(endsRecordsWithTab('PT\tAU\tPY\r\nJ\tKim, J\t2024\t\r\nJ\tLee, A\t2023\t\r\nJ\tPa')).toBe(true);
    expect(endsRecordsWithTab('\uFEFFPT\tAU\nJ\tKim, J\t\n')).toBe(true);
    expect(endsRecordsWithTab('A\tB\nx\t\ny\tz\n')).toBe(false); // an empty last field
    expect(endsRecordsWithTab('A\tB\nx\ty\t\ny\tz\n')).toBe(false); // only some records
    expect(endsRecordsWithTab('A\tB\n')).toBe(false); // no whole record
  });
});
