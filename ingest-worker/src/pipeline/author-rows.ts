/**
 * Derivation of AUTHOR files from Web of Science–style records: one author row per author, with the
 * email paired to it (`@sift/shared/author-pairing`), and one per email no author could be given.
 */
import {
  AUTHORS_HEADER,
  EMAIL_MATCH_HEADER,
  EMAILS_HEADER,
  FULL_NAMES_HEADER,
} from '@sift/shared/author-files';
import { pairEmails, type EmailMatch } from '@sift/shared/author-pairing';

export { pairEmails, type EmailMatch };

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

/** The AUTHOR file's headers for a source sheet: the source's, then the Email Match column. */
export function authorHeaders(headers: string[]): string[] {
  let match = EMAIL_MATCH_HEADER;
  for (let n = 2; headers.includes(match); n++) match = `${EMAIL_MATCH_HEADER} (${n})`;
  return [...headers, match];
}

/** One author row of a source record: who, their full name, the email paired with them and how. */
export interface AuthorEntry {
  author: string;
  fullName: string;
  email: string;
  match: EmailMatch;
}

/**
 * The author rows of one source record from its `Authors`, `Author Full Names` (may be empty) and
 * `Email Addresses` cells: one per author (its full name when the full names are aligned), the
 * email paired with it and how; then one per email paired with no author (author cells blank,
 * `unmatched`). Neither authors nor emails: none.
 */
export function authorEntries(authorsCell: string, fullNamesCell: string, emailsCell: string): AuthorEntry[] {
  const authors = splitList(authorsCell);
  const fullNames = splitList(fullNamesCell);
  const emails = splitList(emailsCell);
  const { byAuthor, method, unpaired } = pairEmails(authors, fullNames, emails);
  const aligned = fullNames.length === authors.length;
  const out: AuthorEntry[] = authors.map((author, i) => ({
    author,
    fullName: aligned ? fullNames[i]! : '',
    email: byAuthor[i]!,
    match: method[i]!,
  }));
  for (const email of unpaired) out.push({ author: '', fullName: '', email, match: 'unmatched' });
  return out;
}

/**
 * Splits one source row into author rows over `authorHeaders(headers)`: each is the source row with
 * its author cells replaced by one {@link authorEntries} entry and the Email Match column added.
 * A row with neither authors nor emails gives nothing.
 */
export function splitAuthorRow(headers: string[], cells: string[]): string[][] {
  const ia = headers.indexOf(AUTHORS_HEADER);
  const ie = headers.indexOf(EMAILS_HEADER);
  const ifn = headers.indexOf(FULL_NAMES_HEADER);
  const base = headers.map((_, i) => cells[i] ?? '');
  return authorEntries(cells[ia] ?? '', ifn >= 0 ? (cells[ifn] ?? '') : '', cells[ie] ?? '').map((e) => {
    const row = base.slice();
    row[ia] = e.author;
    row[ie] = e.email;
    if (ifn >= 0) row[ifn] = e.fullName;
    row.push(e.match);
    return row;
  });
}
