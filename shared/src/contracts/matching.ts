/**
 * How a search term matches a cell: as a substring, regardless of case and accents, unless the
 * search asks for `matchAccents`. The engine folds with the same rule (clickhouse `foldSql`); the
 * web app uses `matchedParts` to highlight what matched.
 */

/**
 * Letters that lose nothing to removing diacritics (they have no decomposition) but that a person
 * typing plain Latin letters writes otherwise: `Sørensen` as `Sorensen`, `Łukasz` as `Lukasz`,
 * `Straße` as `Strasse`. Lower case only: folding lowers first.
 */
export const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
};

const FOLDED = new RegExp(`[${Object.keys(FOLDED_LETTERS).join('')}]`, 'gu');
const MARKS = /\p{Mn}/gu;

/** `text` lower-cased, without diacritics, FOLDED_LETTERS written plain: `MÜLLER` → `muller`. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(FOLDED, (c) => FOLDED_LETTERS[c]!);
}

/**
 * The distinct substrings of `value` that a search for `term` matched: every place where the folded
 * value contains the folded term (with `matchAccents`, where the lower-cased value contains the
 * lower-cased term), as written in `value`. `matchedParts('Zoë MÜLLER', 'muller')` → `['MÜLLER']`.
 */
export function matchedParts(value: string, term: string, matchAccents = false): string[] {
  const fold = matchAccents ? (s: string) => s.toLowerCase() : foldText;
  const needle = fold(term);
  if (!needle || !value) return [];
  // The folded value, with where each of its UTF-16 units came from in `value`.
  let folded = '';
  const from: number[] = [];
  for (let i = 0; i < value.length;) {
    const cp = value.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const piece = fold(value.slice(i, i + width));
    folded += piece;
    for (let k = 0; k < piece.length; k++) from.push(i);
    i += width;
  }
  from.push(value.length);
  const parts = new Set<string>();
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + needle.length)) {
    const start = from[at]!;
    let end = from[at + needle.length]!;
    // Marks after the last letter belong to it (`e` + U+0301).
    while (end < value.length && fold(value[end]!) === '') end++;
    if (end > start) parts.add(value.slice(start, end));
  }
  return [...parts];
}
