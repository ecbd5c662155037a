/**
 * The generated data both benchmarks use (`bench.ts` writes it as files, `bench-search.ts` has the
 * engine generate it): ~10 Web of Science–like columns, ~300 bytes a row, with a surname that occurs
 * once every RARE_EVERY rows as the rare search term.
 */
export const HEADERS = [
  'Authors',
  'Author Full Names',
  'Article Title',
  'Source Title',
  'Publication Year',
  'DOI',
  'Affiliations',
  'Country',
  'Email Addresses',
  'Keywords',
];
export const SURNAMES = [
  'Smith',
  'Müller',
  'García',
  'Kim',
  'Nguyen',
  'Rossi',
  'Novak',
  'Silva',
  'Kowalski',
  'Tanaka',
  'Okafor',
  'Larsen',
];
export const WORDS = [
  'neural',
  'graph',
  'protein',
  'climate',
  'market',
  'quantum',
  'policy',
  'soil',
  'ocean',
  'learning',
  'network',
  'health',
];
export const COUNTRIES = ['Germany', 'Japan', 'Brazil', 'Nigeria', 'Italy'];

/** Every this many rows, a surname that occurs nowhere else (the rare search term). */
export const RARE_EVERY = 100_003;
export const RARE_SURNAME = 'Zyskowski';
