import { pluralCount } from '../../lib/format';

/**
 * Years as a person's page shows them: `2018–2021`, `2021` for one year, '' when none is known
 * (0 stands for no year given).
 */
export function yearsText(first: number, last: number): string {
  if (!last) return '';
  return first && first !== last ? `${first}–${last}` : String(last);
}

/** A person in one line: the email to write to, the first affiliation, entries and years. */
export function personLine(p: {
  emails: readonly { email: string }[];
  affiliations: readonly string[];
  rows: number;
  firstYear: number;
  lastYear: number;
}): string {
  return [
    p.emails[0]?.email,
    p.affiliations[0],
    pluralCount(p.rows, 'entry', 'entries'),
    yearsText(p.firstYear, p.lastYear),
  ]
    .filter(Boolean)
    .join(' · ');
}
