import { describe, expect, it } from 'vitest';
import { MIN_SAMPLE_VALUES, wantsTextIndex } from './skip-index.ts';

const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

describe('wantsTextIndex', () => {
  it('skips ID-like columns: nearly all values distinct, tokens mostly numbers', () => {
    expect(wantsTextIndex(many(500, (i) => `10.${1000 + (i % 50)}/j.cell.2020.${i}`))).toBe(false);
    expect(wantsTextIndex(many(500, (i) => `WOS:${String(1e14 + i * 7919)}`))).toBe(false);
    expect(wantsTextIndex(many(500, (i) => `978-3-16-${148410 + i}-0`))).toBe(false);
  });

  it('indexes names, titles, emails and low-cardinality codes', () => {
    const surnames = ['Smith', 'Müller', 'García', 'Kim', 'Nguyen', 'Rossi', 'Novak', 'Tanaka'];
    // Distinct people (letters only) are not ID-like, however many there are.
    const name = (i: number) =>
      i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
    expect(wantsTextIndex(many(500, (i) => `${surnames[i % 8]}${name(i)}, J; ${name(i * 7)}, K`))).toBe(true);
    expect(wantsTextIndex(many(500, (i) => `A study of ${surnames[i % 8]} fields number ${i}`))).toBe(true);
    expect(
      wantsTextIndex(many(500, (i) => `${surnames[i % 8]!.toLowerCase()}.${name(i)}@uni${i % 13}.edu`)),
    ).toBe(true);
    expect(wantsTextIndex(many(500, (i) => String(1990 + (i % 35))))).toBe(true);
  });

  it('indexes when the sample is too small to judge or absent, not when the column is empty in it', () => {
    expect(wantsTextIndex(many(MIN_SAMPLE_VALUES - 1, (i) => `10.1000/${i}`))).toBe(true);
    expect(wantsTextIndex([])).toBe(true);
    expect(wantsTextIndex(many(1000, () => ''))).toBe(false);
  });
});
