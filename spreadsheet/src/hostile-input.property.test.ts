/**
 * Property: whatever bytes arrive, reading them ends, either with rows or with InvalidFileError (a
 * message for the user): never another error, an unhandled rejection, a crash or a hang. Inputs are
 * random bytes, and valid CSV and xlsx files mutated at the byte and at the XML level.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidFileError, readSpreadsheet, validateSpreadsheet } from './index.ts';
import { workbookBytes } from './testing/workbook.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'sift-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** 'rows' when `bytes` read to the end as `name`, 'refused' on InvalidFileError; anything else throws. */
async function outcome(name: string, bytes: Uint8Array): Promise<'rows' | 'refused'> {
  const file = path.join(dir, `${n++}-${name}`);
  writeFileSync(file, bytes);
  try {
    const format = await validateSpreadsheet(file, name);
    for await (const row of readSpreadsheet(file, name, undefined, format)) {
      expect(Array.isArray(row.cells)).toBe(true);
    }
    return 'rows';
  } catch (e) {
    if (e instanceof InvalidFileError && e.message.length > 0) return 'refused';
    throw e;
  } finally {
    rmSync(file, { force: true });
  }
}

const VALID_CSV =
  'Name,Email,Notes\r\nAda Lovelace,ada@example.org,"quoted, with ""quotes"""\r\nGrace,g@x.org,\r\n';

/** A small valid workbook whose sheet XML is `sheet`, with shared strings (one of them rich text). */
const workbook = (sheet: string) =>
  workbookBytes(sheet, {
    'xl/sharedStrings.xml':
      '<sst><si><t>Name</t></si><si><r><t>Ada </t></r><r><t>Lovelace</t></r></si></sst>',
  });

const VALID_SHEET =
  '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>When</t></is></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="0"><v>45000.5</v></c><c r="C2" t="b"><v>1</v></c></row></sheetData></worksheet>';

/** Byte-level mutations: overwrite bytes, cut the file short, or splice random bytes in. */
const mutated = (base: Uint8Array) =>
  fc.oneof(
    fc
      .array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 16,
      })
      .map((edits) => {
        const out = Uint8Array.from(base);
        for (const [at, byte] of edits) out[at] = byte;
        return out;
      }),
    fc.nat(base.length).map((end) => base.slice(0, end)),
    fc.tuple(fc.nat(base.length), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([at, bytes]) => {
      const out = new Uint8Array(base.length + bytes.length);
      out.set(base.subarray(0, at));
      out.set(bytes, at);
      out.set(base.subarray(at), at + bytes.length);
      return out;
    }),
  );

/** Markup and text an XML-level mutation splices into the sheet. */
const xmlPiece = fc.oneof(
  fc.constantFrom(
    '<',
    '>',
    '&',
    '&amp;',
    '&#0;',
    '&#x10FFFF;',
    '&bogus;',
    '<![CDATA[x',
    ']]>',
    '<!DOCTYPE x>',
    '<?pi?>',
    '<!--',
    '-->',
    '</row>',
    '<row r="0">',
    '<row r="-1">',
    '<row r="1048577">',
    '<c r="XFE1">',
    '<c r="A0" t="s"><v>99</v></c>',
    '<c t="s"><v>-1</v></c>',
    '<c t="n"><v>1e309</v></c>',
    '<c s="999"><v>1</v></c>',
    '<c r="ZZZZZZZZZZZZ1"/>',
    '"',
    "'",
    '\u0000',
    '\uFFFF',
    '\uD800',
  ),
  fc.string({ maxLength: 24 }),
);

describe('reading hostile input', () => {
  it('random bytes named .csv, .xlsx or .xls end with rows or a clean refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom('f.csv', 'f.xlsx', 'f.xls'),
        async (bytes, name) => {
          expect(['rows', 'refused']).toContain(await outcome(name, bytes));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a CSV mutated byte by byte ends with rows or a clean refusal', async () => {
    const base = new TextEncoder().encode(VALID_CSV);
    expect(await outcome('base.csv', base)).toBe('rows');
    await fc.assert(
      fc.asyncProperty(mutated(base), async (bytes) => {
        expect(['rows', 'refused']).toContain(await outcome('m.csv', bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('an xlsx mutated byte by byte ends with rows or a clean refusal', async () => {
    const base = await workbook(VALID_SHEET);
    expect(await outcome('base.xlsx', base)).toBe('rows');
    await fc.assert(
      fc.asyncProperty(mutated(base), async (bytes) => {
        expect(['rows', 'refused']).toContain(await outcome('m.xlsx', bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('an xlsx whose sheet XML is mutated ends with rows or a clean refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(VALID_SHEET.length), xmlPiece), { minLength: 1, maxLength: 6 }),
        async (edits) => {
          let sheet = VALID_SHEET;
          for (const [at, piece] of edits) {
            const i = Math.min(at, sheet.length);
            sheet = sheet.slice(0, i) + piece + sheet.slice(i);
          }
          expect(['rows', 'refused']).toContain(await outcome('x.xlsx', await workbook(sheet)));
        },
      ),
      { numRuns: 200 },
    );
  });
});
