import type { FileRow, Storage } from '@sift/clickhouse';
import {
  foldText,
  type PeopleSearchRequest,
  type PeopleSearchResponse,
  type PersonSummary,
} from '@sift/shared/contracts';
import {
  authorRowEvidence,
  groupPeople,
  PEOPLE_HEADERS,
  type AuthorEvidence,
  type Person,
} from '@sift/shared/people';
import { HttpError } from '../errors.ts';

/**
 * Most AUTHOR rows People reads for one answer. People are made on request from the account's
 * AUTHOR rows for now (issue 35's first steps); past this, the answer is 503 with the reason,
 * until people are kept up to date by the ingest.
 */
export const PEOPLE_MAX_AUTHOR_ROWS = 200_000;

/** The journal headers of Web of Science and Scopus exports, first found first. */
const JOURNAL_HEADERS = ['Source Title', 'Journal', 'Source title'];
/** The publication year headers of Web of Science and Scopus exports, first found first. */
const YEAR_HEADERS = ['Publication Year', 'Year'];

/** One AUTHOR row as the People search reads it. */
type Evidence = AuthorEvidence & { fileId: string; journal: string; year: number };

/** A person's rows and the files and journals behind them, beside the person. */
interface Found {
  person: Person;
  fileIds: Set<string>;
  journals: Map<string, number>;
  /** Folded text the query is looked for in. */
  text: string;
  /** The year of their latest paper (0: none given). */
  lastYear: number;
}

/**
 * People search over one account's PROCESSED AUTHOR files: their rows made into people by
 * `groupPeople` (a shared email, ORCID or ResearcherID joins rows; a name alone never does),
 * looked through for the query, most rows first.
 */
export class PeopleService {
  constructor(
    private readonly storage: Storage,
    /** The account's PROCESSED AUTHOR files (the search's file list, from the record cache). */
    private readonly authorFiles: (ownerId: string) => Promise<FileRow[]>,
    /** Every file record of the account (for the GENERAL files' names). */
    private readonly allFiles: (ownerId: string) => Promise<FileRow[]>,
  ) {}

  /**
   * A page of the account's people matching `request.query` (see peopleSearchRequestSchema).
   *
   * @throws HttpError 503 PEOPLE_TOO_MANY_ROWS past PEOPLE_MAX_AUTHOR_ROWS author rows
   */
  async search(ownerId: string, request: PeopleSearchRequest): Promise<PeopleSearchResponse> {
    const { matching, files, authorRows, suggestions } = await this.#find(ownerId, request.query);
    const { page, size } = request;
    return {
      people: matching.slice(page * size, page * size + size).map((f) => summaryOf(f, files)),
      totalPeople: matching.length,
      page,
      size,
      totalPages: Math.ceil(matching.length / size),
      authorRows,
      suggestions,
    };
  }

  /**
   * The contact list of the people matching `query`, one row per person, most entries first:
   * Name, Email (the one on most entries: the one to write to), Other Emails, ORCID, ResearcherID,
   * Entries, Last Year, Journals, Files. Values as they are (the export writes them safely).
   *
   * @throws HttpError 503 PEOPLE_TOO_MANY_ROWS past PEOPLE_MAX_AUTHOR_ROWS author rows
   */
  async contacts(ownerId: string, query: string): Promise<{ header: string[]; rows: string[][] }> {
    const { matching, files } = await this.#find(ownerId, query);
    const rows = matching.map((found) => {
      const p = summaryOf(found, files);
      return [
        p.name,
        p.emails[0]?.email ?? '',
        p.emails
          .slice(1)
          .map((e) => e.email)
          .join('; '),
        p.orcids.join('; '),
        p.researcherIds.join('; '),
        String(p.rows),
        found.lastYear ? String(found.lastYear) : '',
        p.journals.join('; '),
        p.files.map((f) => f.name).join('; '),
      ];
    });
    const header = [
      'Name',
      'Email',
      'Other Emails',
      'ORCID',
      'ResearcherID',
      'Entries',
      'Last Year',
      'Journals',
      'Files',
    ];
    return { header, rows };
  }

  /** The account's people matching `query`, most rows first, and what they were made of. */
  async #find(ownerId: string, query: string) {
    const files = await this.authorFiles(ownerId);
    const authorRows = files.reduce((n, f) => n + f.totalRows, 0);
    if (authorRows > PEOPLE_MAX_AUTHOR_ROWS)
      throw new HttpError(
        503,
        'PEOPLE_TOO_MANY_ROWS',
        `People are made on request from at most ${PEOPLE_MAX_AUTHOR_ROWS.toLocaleString('en-US')} author rows for now; your files have ${authorRows.toLocaleString('en-US')}. Use the Authors search meanwhile.`,
      );
    const records = new Map((await this.allFiles(ownerId)).map((f) => [f.id, f]));
    const evidence: Evidence[] = [];
    const headers = [...PEOPLE_HEADERS, ...JOURNAL_HEADERS, ...YEAR_HEADERS];
    for await (const batch of this.storage.rows.scan({ files, criteria: {}, headers })) {
      for (const hit of batch) {
        const cell = (h: string) => (hit.cells[h] ?? '').trim();
        const year = Number(/\b(19|20)\d\d\b/.exec(YEAR_HEADERS.map(cell).find(Boolean) ?? '')?.[0] ?? 0);
        evidence.push({
          ...authorRowEvidence(`${hit.fileId}/${hit.sheet}/${hit.rowNumber}`, cell),
          fileId: hit.fileId,
          journal: JOURNAL_HEADERS.map(cell).find(Boolean) ?? '',
          year,
        });
      }
    }
    const byRef = new Map(evidence.map((e) => [e.ref, e]));
    const { people, suggestions } = groupPeople(evidence);
    const found: Found[] = people.map((person) => {
      const rows = person.refs.map((ref) => byRef.get(ref)!);
      const journals = new Map<string, number>();
      for (const r of rows) if (r.journal) journals.set(r.journal, (journals.get(r.journal) ?? 0) + 1);
      const text = [
        ...person.names,
        ...person.emails.map((e) => e.email),
        ...person.orcids,
        ...person.researcherIds,
        ...journals.keys(),
      ]
        .map(foldText)
        .join('\n');
      const lastYear = Math.max(0, ...rows.map((r) => r.year));
      return { person, fileIds: new Set(rows.map((r) => r.fileId)), journals, text, lastYear };
    });
    const folded = foldText(query.trim());
    const domain = folded.startsWith('@') ? folded : null;
    const matching = found
      .filter(({ person, text }) =>
        !folded ? true : domain ? person.emails.some((e) => e.email.endsWith(domain)) : text.includes(folded),
      )
      .sort(
        (a, b) =>
          b.person.refs.length - a.person.refs.length ||
          (a.person.names[0] ?? '').localeCompare(b.person.names[0] ?? ''),
      );
    return { matching, files: records, authorRows: evidence.length, suggestions: suggestions.length };
  }
}

/** A person as the People search lists them (see PersonSummary). */
function summaryOf({ person, fileIds, journals }: Found, records: Map<string, FileRow>): PersonSummary {
  return {
    name: person.names[0] ?? '',
    otherNames: person.names.slice(1),
    emails: person.emails,
    orcids: person.orcids,
    researcherIds: person.researcherIds,
    rows: person.refs.length,
    files: [...fileIds].map((id) => {
      const author = records.get(id);
      const source = author?.sourceFileId ? records.get(author.sourceFileId) : author;
      return { id: source?.id ?? id, name: source?.originalFilename ?? '' };
    }),
    journals: [...journals]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([j]) => j),
  };
}
