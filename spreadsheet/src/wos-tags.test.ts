import { describe, expect, it } from 'vitest';
import { headerNames } from './headers.ts';
import { namedWosTags } from './wos-tags.ts';

describe('namedWosTags', () => {
  it("names a Web of Science tag row as WoS's Excel export does, keeping what is not a tag", () => {
    expect(namedWosTags(['PT', 'AU', 'AF', 'TI', 'EM', 'OI', 'UT', ''])).toEqual([
      'Publication Type',
      'Authors',
      'Author Full Names',
      'Article Title',
      'Email Addresses',
      'ORCIDs',
      'UT (Unique WOS ID)',
      '',
    ]);
    // A blank cell is still named by position afterwards.
    expect(headerNames([' PT ', 'AU', 'TI', ''])).toEqual([
      'Publication Type',
      'Authors',
      'Article Title',
      'Column 4',
    ]);
  });

  it('leaves any other header row alone, even one with a few tag-like names', () => {
    const contacts = ['Name', 'AU', 'Country', 'EM'];
    expect(namedWosTags(contacts)).toBe(contacts);
    const mostlyOther = ['PT', 'AU', 'TI', 'Region', 'District', 'Population'];
    expect(namedWosTags(mostlyOther)).toBe(mostlyOther);
  });
});
