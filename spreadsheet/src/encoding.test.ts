/**
 * Choosing a CSV's encoding from a sample of its first bytes: a sample ends wherever the read
 * stopped, often inside a multi-byte character, and that must not make valid text look invalid.
 */
import { describe, expect, it } from 'vitest';
import { garbledCharacters, guessEncoding, utf16ByZeros } from './csv.ts';

/** `size` bytes of `text` repeated, after `offset` ASCII bytes: a sample cut at an arbitrary byte. */
function sample(text: string, encoding: 'utf8' | 'utf16le', size: number, offset: number): Buffer {
  const unit = Buffer.from(text, encoding);
  const body = Buffer.concat(Array.from({ length: Math.ceil(size / unit.length) + 1 }, () => unit));
  return Buffer.concat([Buffer.from('x'.repeat(offset)), body]).subarray(0, size);
}

describe('guessEncoding on a sample cut inside a character', () => {
  // 3-byte (CJK), 4-byte (outside the BMP) and 2-byte (accented Latin) UTF-8 characters, at every
  // alignment of the sample's end: the file is UTF-8 whichever byte the sample stops at.
  it.each([
    ['Chinese', '作者,期刊\n张伟,中国科学\n'],
    ['Japanese', '著者,山田太郎\n'],
    ['emoji', 'Name,😀\n'],
    ['Polish', 'Wałęsa, Łukasz\n'],
  ])('reads %s text as UTF-8 at every cut', (_, text) => {
    for (let offset = 0; offset < 4; offset++) {
      const head = sample(text, 'utf8', 64 * 1024, offset);
      expect([offset, guessEncoding(head, false).encoding]).toEqual([offset, 'utf-8']);
    }
  });

  it('still finds invalid UTF-8 before the cut', () => {
    const head = Buffer.concat([
      Buffer.from('Name\nM'),
      Buffer.from([0xfc]),
      Buffer.from('ller\n'.repeat(100)),
    ]);
    expect(guessEncoding(head, false).encoding).not.toBe('utf-8');
  });

  it('needs a whole file to end on a whole character', () => {
    const cut = Buffer.from('Name,张伟\n', 'utf8').subarray(0, 10); // ends inside 伟
    expect(guessEncoding(cut, true).encoding).not.toBe('utf-8');
    expect(guessEncoding(cut, false).encoding).toBe('utf-8');
  });
});

describe('guessEncoding on short East Asian files', () => {
  // The detector ranks a single-byte Latin encoding first for these (windows-1252 at 32–38 %).
  // The bytes as Python's codecs write the text (JavaScript has no Shift_JIS or EUC-KR encoder).
  it.each([
    [
      'a Shift_JIS contact list',
      'Name,Affiliation,Email\n山田太郎,東京大学,yamada@u-tokyo.ac.jp\n',
      '4e616d652c416666696c696174696f6e2c456d61696c0a8e52936391be98592c938c8b9e91e58a772c79616d61646140752d746f6b796f2e61632e6a700a',
      'shift_jis',
    ],
    [
      'one Shift_JIS title among English ones',
      'Title,Year\nDeep learning,2020\nスマートフォン,2021\n',
      '5469746c652c596561720a44656570206c6561726e696e672c323032300a8358837d815b83678374834883932c323032310a',
      'shift_jis',
    ],
    [
      'an EUC-KR list',
      '이름,소속\n김민준,서울대학교\n',
      'c0ccb8a72cbcd2bcd30ab1e8b9cec1d82cbcadbfefb4ebc7d0b1b30a',
      'euc-kr',
    ],
  ])('reads %s as what it is', (_, text, hex, encoding) => {
    const bytes = Buffer.from(hex, 'hex');
    const guess = guessEncoding(bytes, true);
    expect(guess.encoding).toBe(encoding);
    expect(new TextDecoder(guess.encoding).decode(bytes)).toBe(text);
  });

  it('keeps a short Latin-2 or Cyrillic file in its single-byte encoding', () => {
    const polish = Buffer.from([
      ...Buffer.from('Nazwisko,Miasto\nWa'),
      0xb3,
      0xea, // łę in windows-1250: a valid Shift_JIS pair
      ...Buffer.from('sa,Krak'),
      0xf3, // ó
      ...Buffer.from('w\n'),
    ]);
    expect(guessEncoding(polish, true).encoding).not.toMatch(/shift_jis|euc|big5|gb18030/);
  });
});

describe('utf16ByZeros', () => {
  it('knows UTF-16 without a BOM by the zero in every other byte, in either order', () => {
    const text = 'PT\tAU\tTI\r\nJ\tMüller, K\tReading exports\t\r\n';
    expect(utf16ByZeros(Buffer.from(text, 'utf16le'))).toBe('utf-16le');
    expect(utf16ByZeros(Buffer.from(text, 'utf16le').swap16())).toBe('utf-16be');
    expect(utf16ByZeros(Buffer.from(text, 'utf8'))).toBeNull();
    expect(guessEncoding(Buffer.from(text, 'utf16le'), true)).toMatchObject({
      encoding: 'utf-16le',
      method: 'utf-16',
    });
  });
});

describe('garbledCharacters', () => {
  it('counts replacement characters and UTF-8 read as Windows-1252, not accented names', () => {
    expect(garbledCharacters('M\uFFFDller, Gr\uFFFDning')).toBe(2);
    expect(garbledCharacters('MÃ¼ller; KÃ¶ln; Wa\u00c5\u201a\u00c4\u2122sa; it\u00e2\u20ac\u2122s')).toBe(5);
    expect(garbledCharacters('Tomáš Růžička; São Paulo; Ærø; Åsa; Müller')).toBe(0);
  });
});
