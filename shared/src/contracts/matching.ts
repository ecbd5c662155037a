/**
 * How a search term matches a cell: as a substring, regardless of case and accents, unless the
 * search asks for `matchAccents`. Both sides are folded (`foldText`): the engine with the same
 * rule (clickhouse `foldSql`, built from FOLD_LETTERS and FOLD_SEQUENCES below), the web app to
 * highlight what matched (`matchedParts`).
 */

/**
 * Lower-case letters without a decomposition that a person typing plain Latin letters writes
 * otherwise (`Sørensen` as `Sorensen`, `Łukasz` as `Lukasz`), and those written as two letters
 * (`Straße` as `Strasse`).
 */
export const FOLD_LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
};
export const FOLD_SEQUENCES: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th' };

const PLAIN = { ...FOLD_LETTERS, ...FOLD_SEQUENCES } as Readonly<Record<string, string>>;
const PLAINED = new RegExp(`[${Object.keys(PLAIN).join('')}]`, 'gu');
const MARKS = /\p{Mn}/gu;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * `text` folded for matching: lower-cased, diacritics removed (decomposed, combining marks
 * dropped), FOLD_LETTERS and FOLD_SEQUENCES written plain. `MÜLLER` → `muller`, `Nguyễn` →
 * `nguyen`, `Straße` → `strasse`, `Иванов` → `иванов`. ASCII text is only lower-cased.
 *
 * @param text - any text
 * @returns the folded text
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(PLAINED, (c) => PLAIN[c]!);
}

/**
 * A criterion that asks for a cell's whole value rather than a part of it: the value in double
 * quotes (`"Article"`). It matches a cell equal to the value once both are folded as search folds
 * them, the way facets count values, so clicking a facet value finds exactly the rows it counted.
 *
 * @param value - a cell's whole value
 * @returns the criterion's text
 */
export function exactCriterion(value: string): string {
  return `"${value}"`;
}

/**
 * The value an exact criterion asks for (see exactCriterion), or null for a contains criterion.
 *
 * @param term - a criterion's text, trimmed
 * @returns the value between the quotes, or null
 */
export function exactValueOf(term: string): string | null {
  return term.length >= 2 && term.startsWith('"') && term.endsWith('"') ? term.slice(1, -1) : null;
}

/**
 * The distinct substrings of `value` that a search for `term` matched: every place where the folded
 * value contains the folded term (with `matchAccents`, where the lower-cased value contains the
 * lower-cased term), as written in `value`; for an exact criterion, the whole value when it is the
 * one asked for. `matchedParts('Zoë MÜLLER', 'muller')` → `['MÜLLER']`.
 *
 * @param value - a cell's text
 * @param term - the searched text
 * @param matchAccents - accents must match too
 * @returns the matched substrings, as written in `value`
 */
export function matchedParts(value: string, term: string, matchAccents = false): string[] {
  const fold = matchAccents ? (s: string) => s.toLowerCase() : foldText;
  const exact = exactValueOf(term);
  if (exact !== null) return value && fold(value) === fold(exact) ? [value] : [];
  const needle = fold(term);
  if (!needle || !value) return [];
  // The folded value, with where each of its UTF-16 units came from in `value`.
  let folded = '';
  const from: number[] = [];
  for (let i = 0; i < value.length;) {
    const width = value.codePointAt(i)! > 0xffff ? 2 : 1;
    const piece = fold(value.slice(i, i + width));
    folded += piece;
    for (let k = 0; k < piece.length; k++) from.push(i);
    i += width;
  }
  from.push(value.length);
  const parts = new Set<string>();
  for (let at = folded.indexOf(needle); at !== -1; at = folded.indexOf(needle, at + needle.length)) {
    const start = from[at]!;
    const end = from[at + needle.length]!;
    if (end > start) parts.add(value.slice(start, end));
  }
  return [...parts];
}
