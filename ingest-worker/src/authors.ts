/**
 * Derivation of AUTHOR files from Web of Science–style records: `Authors` and `Email Addresses`
 * hold `;`-separated lists that are not aligned (emails exist only for some authors), so each email
 * is matched to an author by name, by position only when the counts agree and nothing contradicts it,
 * and no email is ever dropped.
 */

export const AUTHORS_HEADER = 'Authors';
export const EMAILS_HEADER = 'Email Addresses';
export const FULL_NAMES_HEADER = 'Author Full Names';

/** True when a sheet's header row makes it a source of author rows. */
export function hasAuthorColumns(headers: string[]): boolean {
  return headers.includes(AUTHORS_HEADER) && headers.includes(EMAILS_HEADER);
}

function splitList(cell: string | undefined): string[] {
  return (cell ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Lower-case ASCII letters only: `Müller-Lüdenscheidt` → `mullerludenscheidt`. */
function letters(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

interface Person {
  surname: string;
  surnameParts: string[];
  givenNames: string[];
  initials: string;
}

function person(short: string, full: string | undefined): Person {
  const [surnameRaw = '', givenRaw = ''] = (full ?? short).split(',', 2);
  const shortGiven = short.split(',', 2)[1] ?? '';
  const givenNames = givenRaw
    .split(/[\s.-]+/)
    .map(letters)
    .filter((g) => g.length >= 2);
  const initials = letters(shortGiven) || givenNames.map((g) => g[0]).join('');
  return {
    surname: letters(surnameRaw),
    surnameParts: surnameRaw
      .split(/[\s-]+/)
      .map(letters)
      .filter((p) => p.length >= 3),
    givenNames,
    initials,
  };
}

/** How strongly an email's local part points at a person (0 = not at all). */
function score(local: string, p: Person): number {
  if (p.surname.length >= 2 && local.includes(p.surname)) {
    const given = p.givenNames.some((g) => local.includes(g)) || local.startsWith(p.initials[0] ?? '\0');
    return given ? 12 : 10;
  }
  if (p.surnameParts.some((s) => local.includes(s))) return 8;
  if (p.givenNames.some((g) => g.length >= 3 && local.includes(g))) return 6;
  if (p.initials.length >= 2 && p.surname && local === p.initials + p.surname[0]) return 4;
  return 0;
}

/**
 * Pairs the emails of one record with its authors. Returns, for each author index, the email paired
 * with it (or ''), plus the emails no author could be given.
 */
export function pairEmails(
  authors: string[],
  fullNames: string[],
  emails: string[],
): { byAuthor: string[]; unpaired: string[] } {
  const aligned = fullNames.length === authors.length;
  const people = authors.map((a, i) => person(a, aligned ? fullNames[i] : undefined));
  const locals = emails.map((e) => letters(e.split('@')[0] ?? ''));
  const candidates: { e: number; a: number; s: number }[] = [];
  locals.forEach((local, e) =>
    people.forEach((p, a) => {
      const s = score(local, p);
      if (s > 0) candidates.push({ e, a, s });
    }),
  );
  // Best matches first; on equal strength prefer the pairing that agrees with position.
  candidates.sort((x, y) => y.s - x.s || Number(y.e === y.a) - Number(x.e === x.a) || x.e - y.e);
  const byAuthor = authors.map(() => '');
  const emailTaken = emails.map(() => false);
  let contradiction = false;
  for (const { e, a } of candidates) {
    if (emailTaken[e] || byAuthor[a]) continue;
    byAuthor[a] = emails[e]!;
    emailTaken[e] = true;
    if (e !== a) contradiction = true;
  }
  if (emails.length === authors.length && !contradiction) {
    emails.forEach((email, i) => {
      if (!emailTaken[i] && !byAuthor[i]) {
        byAuthor[i] = email;
        emailTaken[i] = true;
      }
    });
  }
  return { byAuthor, unpaired: emails.filter((_, i) => !emailTaken[i]) };
}

/**
 * Splits one source row into author rows over the same headers: each holds one author (its full
 * name when `Author Full Names` is aligned) and the email paired with it; emails paired with no
 * author get a row of their own with the author cells blank. A row with neither gives nothing.
 */
export function splitAuthorRow(headers: string[], cells: string[]): string[][] {
  const ia = headers.indexOf(AUTHORS_HEADER);
  const ie = headers.indexOf(EMAILS_HEADER);
  const ifn = headers.indexOf(FULL_NAMES_HEADER);
  const authors = splitList(cells[ia]);
  const fullNames = ifn >= 0 ? splitList(cells[ifn]) : [];
  const emails = splitList(cells[ie]);
  const { byAuthor, unpaired } = pairEmails(authors, fullNames, emails);
  const aligned = fullNames.length === authors.length;
  const base = headers.map((_, i) => cells[i] ?? '');
  const out: string[][] = [];
  const emit = (author: string, fullName: string, email: string) => {
    const row = base.slice();
    row[ia] = author;
    row[ie] = email;
    if (ifn >= 0) row[ifn] = fullName;
    out.push(row);
  };
  authors.forEach((a, i) => emit(a, aligned ? fullNames[i]! : '', byAuthor[i]!));
  for (const email of unpaired) emit('', '', email);
  return out;
}
