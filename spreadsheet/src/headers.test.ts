import { describe, expect, it } from 'vitest';
import { headerRowDecided, headerRowIndex } from './headers.ts';

const about = ['About the data: Exported on Nov 26, 2026. Criteria: "bibliometrics" in titles.', '', ''];

describe('headerRowIndex', () => {
  it('looks past title rows above a header of three or more filled cells', () => {
    expect(headerRowIndex([about, ['Rank', 'Title', 'Authors'], ['1', 'A', 'B']])).toBe(1);
    const caption = ['Table 1. Population by voivodeship, 2023'];
    const unit = ['in thousands of persons, as of 31 December'];
    expect(headerRowIndex([caption, unit, ['Voivodeship', 'Total', 'Urban', 'Rural']])).toBe(2);
  });

  it('keeps the first row otherwise: short single headers, narrow tables, no header in sight', () => {
    expect(headerRowIndex([['Email'], ['ada@example.com']])).toBe(0);
    expect(
      headerRowIndex([
        ['Name', 'Email'],
        ['Ada', 'ada@example.com'],
      ]),
    ).toBe(0);
    // A long lone header over a two-column body is not taken for a title.
    expect(headerRowIndex([['A rather long lone header cell here'], ['x', 'y']])).toBe(0);
    expect(headerRowIndex([about])).toBe(0);
    expect(headerRowIndex([])).toBe(0);
  });

  it('decides once a row is no title, or enough rows were read', () => {
    expect(headerRowDecided([about])).toBe(false);
    expect(headerRowDecided([about, ['Rank', 'Title']])).toBe(true);
    expect(headerRowDecided(Array.from({ length: 6 }, () => about))).toBe(true);
  });
});
