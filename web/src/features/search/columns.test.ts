import { describe, expect, it } from 'vitest';
import { criteriaColumns, resultColumns } from './columns';

const rows = [
  { Title: 'Graphs', Authors: 'Smith, J', Email: '', Notes: null },
  { Title: 'Trees', Authors: 'Müller, K', Email: 'k@ku.dk' },
];
const visible = ['Title', 'Authors', 'Abstract', 'Email', 'Notes', 'Year'];

describe('resultColumns', () => {
  it('puts the searched columns first, then the sorted one, and leaves out columns no row fills', () => {
    expect(resultColumns(visible, rows, { Email: 'ku.dk', Year: ' ' }, { sortBy: 'Authors' })).toEqual({
      shown: ['Email', 'Authors', 'Title'],
      empty: ['Abstract', 'Notes', 'Year'],
    });
  });

  it('keeps a searched column even when the page holds no value in it, and every column with showEmpty', () => {
    expect(resultColumns(visible, rows, { Abstract: 'x' }).shown).toEqual([
      'Abstract',
      'Title',
      'Authors',
      'Email',
    ]);
    expect(resultColumns(visible, rows, { Email: 'dk' }, { showEmpty: true })).toEqual({
      shown: ['Email', 'Title', 'Authors', 'Abstract', 'Notes', 'Year'],
      empty: ['Abstract', 'Notes', 'Year'],
    });
  });

  it('leaves the columns as they are with no rows, and ignores criteria on columns not shown', () => {
    expect(resultColumns(visible, [], { Email: 'x' })).toEqual({ shown: visible, empty: [] });
    expect(resultColumns(['Title'], rows, { Hidden: 'x' }).shown).toEqual(['Title']);
  });
});

describe('criteriaColumns', () => {
  const wos = [
    'Publication Type',
    'Authors',
    'Book Authors',
    'Article Title',
    'Source Title',
    'Abstract',
    'Email Addresses',
    'DOI',
  ];

  it('offers the usual columns, then keeps those typed in and those added, in column order', () => {
    expect(criteriaColumns(wos, {}, [])).toEqual(['Authors', 'Article Title', 'Email Addresses']);
    expect(criteriaColumns(wos, { DOI: '10.1', Abstract: ' ' }, ['Publication Type'])).toEqual([
      'Publication Type',
      'Authors',
      'Article Title',
      'Email Addresses',
      'DOI',
    ]);
    expect(criteriaColumns(['Name', 'Full Name', 'Country'], {}, [])).toEqual([
      'Name',
      'Full Name',
      'Country',
    ]);
  });

  it('falls back on the first columns when no header is a usual one', () => {
    expect(criteriaColumns(['A', 'B', 'C', 'D'], {}, [])).toEqual(['A', 'B', 'C']);
  });
});
