/**
 * Who is who among AUTHOR rows (issue 35): the rule that makes people of author rows, shared by
 * everything that builds or checks them.
 *
 * A person is a set of AUTHOR rows joined, transitively, by what identifies a researcher: an email
 * address (compared case-insensitively), an ORCID, or a ResearcherID. Two rows with the same name
 * and nothing of these in common are never joined: homonyms are common (`Wang, L` is thousands of
 * people), so people whose folded full names are equal are offered as "possibly the same person",
 * with the evidence (co-authors, affiliations, journals they share), for a person to confirm or
 * keep apart.
 */
import {
  AUTHORS_HEADER,
  EMAILS_HEADER,
  FULL_NAMES_HEADER,
  ORCIDS_HEADER,
  RESEARCHER_IDS_HEADER,
} from './author-files.ts';
import { foldText } from './contracts/matching.ts';

/** One AUTHOR row as people are made of it. */
export interface AuthorEvidence {
  /** Which row it is (e.g. `{fileId}/{sheet}/{row}`): what a person lists as its provenance. */
  ref: string;
  /** The author's name as the row gives it (`Müller, Hans`; a full name when there is one). */
  name: string;
  /** The email addresses paired with the author on this row (any case; blanks ignored). */
  emails: readonly string[];
  /** The author's ORCID on this row ('' without one); any spelling holding `0000-0002-1825-0097`. */
  orcid?: string;
  /** The author's ResearcherID on this row ('' without one), e.g. `A-1234-2010`. */
  researcherId?: string;
  /** The record's other authors (evidence for a suggestion only). */
  coAuthors?: readonly string[];
  /** The author's affiliations on this row (evidence for a suggestion only). */
  affiliations?: readonly string[];
  /** The record's journal or source title (evidence for a suggestion only). */
  journal?: string;
}

/** The AUTHOR row headers people are made of (see authorRowEvidence). */
export const PEOPLE_HEADERS: readonly string[] = [
  AUTHORS_HEADER,
  FULL_NAMES_HEADER,
  EMAILS_HEADER,
  ORCIDS_HEADER,
  RESEARCHER_IDS_HEADER,
];

/**
 * An AUTHOR row as people are made of it, from its cells (`cell(header)`, trimmed): its name is
 * its full name (Author Full Names), else its author (Authors); its emails are Email Addresses
 * cut at `;`, `,` and spaces; its ORCID and ResearcherID are the ORCIDs and Researcher Ids cells.
 *
 * @param ref - which row it is (see AuthorEvidence.ref)
 * @param cell - the row's value of a header, trimmed ('' without one)
 */
export function authorRowEvidence(ref: string, cell: (header: string) => string): AuthorEvidence {
  return {
    ref,
    name: cell(FULL_NAMES_HEADER) || cell(AUTHORS_HEADER),
    emails: cell(EMAILS_HEADER).split(/[;,\s]+/),
    orcid: cell(ORCIDS_HEADER),
    researcherId: cell(RESEARCHER_IDS_HEADER),
  };
}

/** A person: the rows joined by a shared identifier, and what they say about the researcher. */
export interface Person {
  /** The rows, in the order given. */
  refs: string[];
  /** The names the rows give, fullest first (then the most frequent, then alphabetical). */
  names: string[];
  /** Each email (lower-cased) with the number of rows giving it, most rows first. */
  emails: { email: string; rows: number }[];
  orcids: string[];
  researcherIds: string[];
}

/** People who may be one researcher: equal folded full names, no identifier in common. */
export interface PersonSuggestion {
  /** The folded full name they share. */
  name: string;
  /** The people (indexes into `people` of groupPeople's answer). */
  people: number[];
  /** What they have in common beside the name, each folded. */
  evidence: { coAuthors: string[]; affiliations: string[]; journals: string[] };
}

/** The ORCID in `text` (`0000-0002-1825-0097`, check digit `X` upper-cased), or ''. */
export function normalOrcid(text: string | undefined): string {
  const found = /(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dXx])/.exec(text ?? '');
  return found ? `${found[1]}-${found[2]}-${found[3]}-${found[4]!.toUpperCase()}` : '';
}

/** The ResearcherID in `text` (`A-1234-2010`, upper-cased), or ''. */
export function normalResearcherId(text: string | undefined): string {
  const found = /\b([A-Za-z]{1,3})-(\d{4})-(\d{4})\b/.exec(text ?? '');
  return found ? `${found[1]!.toUpperCase()}-${found[2]}-${found[3]}` : '';
}

/** A name as names are compared: folded (case, accents), punctuation and spaces made one space. */
export function foldName(name: string): string {
  return foldText(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The identifiers of a row that join it to others: `email:`, `orcid:` and `rid:` keys. */
function keysOf(row: AuthorEvidence): string[] {
  const keys = row.emails.map((e) => e.trim().toLowerCase()).filter((e) => e.includes('@'));
  const orcid = normalOrcid(row.orcid);
  const rid = normalResearcherId(row.researcherId);
  return [
    ...keys.map((e) => `email:${e}`),
    ...(orcid ? [`orcid:${orcid}`] : []),
    ...(rid ? [`rid:${rid}`] : []),
  ];
}

/** Sorted by count, most first, then by value. */
function byCount(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * Makes people of AUTHOR rows (see the module's comment): rows sharing an email, ORCID or
 * ResearcherID are one person, transitively (union-find over the identifiers); a row with none is
 * a person of its own. People whose fullest names fold to the same text are suggested as possibly
 * one researcher, never joined.
 *
 * @param rows - the AUTHOR rows, in any order
 * @returns the people (in the order of their first row) and the suggestions
 */
export function groupPeople(rows: readonly AuthorEvidence[]): {
  people: Person[];
  suggestions: PersonSuggestion[];
} {
  // Union-find over row indexes; an identifier joins every row that gives it to its first one.
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const firstWith = new Map<string, number>();
  rows.forEach((row, i) => {
    for (const key of keysOf(row)) {
      const first = firstWith.get(key);
      if (first === undefined) firstWith.set(key, i);
      else {
        const [a, b] = [find(first), find(i)];
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });

  const groups = new Map<number, number[]>();
  rows.forEach((_, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });
  const members = [...groups.values()].sort((a, b) => a[0]! - b[0]!);
  const people = members.map((indexes) => personOf(indexes.map((i) => rows[i]!)));
  return {
    people,
    suggestions: suggestionsOf(
      people,
      members.map((indexes) => indexes.map((i) => rows[i]!)),
    ),
  };
}

/** A person of its rows. */
function personOf(rows: AuthorEvidence[]): Person {
  const names = new Map<string, number>();
  const emails = new Map<string, number>();
  const orcids = new Set<string>();
  const rids = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (name) names.set(name, (names.get(name) ?? 0) + 1);
    for (const e of new Set(row.emails.map((x) => x.trim().toLowerCase()).filter((x) => x.includes('@'))))
      emails.set(e, (emails.get(e) ?? 0) + 1);
    const orcid = normalOrcid(row.orcid);
    if (orcid) orcids.add(orcid);
    const rid = normalResearcherId(row.researcherId);
    if (rid) rids.add(rid);
  }
  return {
    refs: rows.map((r) => r.ref),
    names: [...names]
      .sort((a, b) => b[0].length - a[0].length || b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([n]) => n),
    emails: byCount(emails).map(([email, n]) => ({ email, rows: n })),
    orcids: [...orcids].sort(),
    researcherIds: [...rids].sort(),
  };
}

/** Suggestions: people whose fullest names fold alike, with what else they share. */
function suggestionsOf(people: Person[], rowsOf: AuthorEvidence[][]): PersonSuggestion[] {
  const byName = new Map<string, number[]>();
  people.forEach((person, i) => {
    const name = foldName(person.names[0] ?? '');
    if (name) byName.set(name, [...(byName.get(name) ?? []), i]);
  });
  const shared = (i: number, pick: (row: AuthorEvidence) => readonly string[]) =>
    new Set(rowsOf[i]!.flatMap((row) => pick(row).map(foldName).filter(Boolean)));
  const common = (indexes: number[], pick: (row: AuthorEvidence) => readonly string[]) => {
    const sets = indexes.map((i) => shared(i, pick));
    return [...sets[0]!].filter((v) => sets.slice(1).every((s) => s.has(v))).sort();
  };
  return [...byName]
    .filter(([, indexes]) => indexes.length > 1)
    .map(([name, indexes]) => ({
      name,
      people: indexes,
      evidence: {
        coAuthors: common(indexes, (row) => row.coAuthors ?? []).filter((c) => c !== name),
        affiliations: common(indexes, (row) => row.affiliations ?? []),
        journals: common(indexes, (row) => (row.journal ? [row.journal] : [])),
      },
    }));
}
