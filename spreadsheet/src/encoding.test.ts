/**
 * Choosing a CSV's encoding from a sample of its first bytes: a sample ends wherever the read
 * stopped, often inside a multi-byte character, and that must not make valid text look invalid.
 */
import { describe, expect, it } from 'vitest';
import { guessEncoding } from './csv.ts';

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
