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
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(PLAINED, (c) => PLAIN[c]!);
}

/** Lower-case letter → the accented letters (both cases) that fold to it, from the Latin ranges. */
const VARIANTS: ReadonlyMap<string, string> = (() => {
  const variants = new Map<string, string>();
  for (const [first, last] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ] as const) {
    for (let cp = first; cp <= last; cp++) {
      const c = String.fromCodePoint(cp);
      const plain = foldText(c);
      if (plain.length === 1 && plain !== c && plain !== c.toLowerCase())
        variants.set(plain, (variants.get(plain) ?? '') + c);
    }
  }
  return variants;
})();
/** Folded letter pairs → the single letters (both cases) that fold to them (`ss` ← `ß`, `ẞ`). */
const SEQUENCE_LETTERS: Readonly<Record<string, string>> = { ss: 'ßẞ', ae: 'æÆ', oe: 'œŒ', th: 'þÞ' };

/**
 * An RE2 pattern (the engine's `match`) for text whose fold contains the fold of `term`: each letter
 * of the folded term as a class of itself and its accented forms, followed by any combining marks,
 * case-insensitive, and a pair written as one letter (`ss` as `ß`) as an alternative, or half of
 * one at either end. Cheaper to
 * run over every cell than folding each one; used where no text index helps (suggestions).
 */
export function foldRegex(term: string): string {
  const chars = [...foldText(term)];
  // A pair written as one letter may give the term its first letter from its own second half
  // (`eros` in `Ærøskøbing`), or its last letter from its first half (`ka` in `kæ`).
  const halves = (c: string, half: 0 | 1) =>
    Object.entries(SEQUENCE_LETTERS)
      .filter(([pair]) => pair[half] === c)
      .map(([, single]) => single)
      .join('');
  const letter = (c: string, i: number) => {
    const extra =
      (VARIANTS.get(c) ?? '') + (i === 0 ? halves(c, 1) : '') + (i === chars.length - 1 ? halves(c, 0) : '');
    const literal = c.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    return `${extra ? `[${literal}${extra}]` : literal}\\p{Mn}*`;
  };
  let pattern = '';
  for (let i = 0; i < chars.length; i++) {
    const single = SEQUENCE_LETTERS[chars[i]! + (chars[i + 1] ?? '')];
    if (single) {
      pattern += `(?:${letter(chars[i]!, i)}${letter(chars[i + 1]!, i + 1)}|[${single}])`;
      i++;
    } else pattern += letter(chars[i]!, i);
  }
  return `(?i)${pattern}`;
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
