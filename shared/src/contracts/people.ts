/**
 * People (issue 35): one entry per researcher across the account's AUTHOR files, made by the rule
 * of `@sift/shared/people` (rows joined by a shared email, ORCID or ResearcherID; never by a name
 * alone).
 */
import { z } from 'zod';

/** Most people a page holds. */
export const PEOPLE_MAX_PAGE_SIZE = 100;

/**
 * `POST /api/file/people/search` body: `query` (folded like every search: case and accents do not
 * count) is looked for in each person's names, emails, ORCIDs, ResearcherIDs and journals;
 * `@domain` matches the people with an email at that domain. Empty: every person.
 */
export const peopleSearchRequestSchema = z.object({
  query: z.string().max(200, { error: 'The query is too long (at most 200 characters).' }).default(''),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(PEOPLE_MAX_PAGE_SIZE).default(20),
});
export type PeopleSearchRequest = z.infer<typeof peopleSearchRequestSchema>;

/** A person as the People search lists them. */
export interface PersonSummary {
  /** The fullest name the rows give, then the other spellings. */
  name: string;
  otherNames: string[];
  /** Each email with the rows giving it, the one to write to first (most rows). */
  emails: { email: string; rows: number }[];
  orcids: string[];
  researcherIds: string[];
  /** AUTHOR rows (author entries on papers) that are this person. */
  rows: number;
  /** The files the rows come from: the GENERAL file each AUTHOR file was derived from. */
  files: { id: string; name: string }[];
  /** The journals of their papers, most papers first (at most 3). */
  journals: string[];
}

/** `POST /api/file/people/search` answer: a page of people, most rows first. */
export interface PeopleSearchResponse {
  people: PersonSummary[];
  totalPeople: number;
  page: number;
  size: number;
  totalPages: number;
  /** The AUTHOR rows the people were made of. */
  authorRows: number;
  /** Groups of people with the same folded name and no identifier in common (possibly one researcher). */
  suggestions: number;
}
