/** Search (spec sections 3, 5 and 9): criteria, result pages, suggestions and saved searches. */
import { z } from 'zod';
import { FILE_TYPES, type FileType } from './files.ts';

/**
 * Column name → search text. Validated by hand rather than with `z.record`, which would turn a
 * column named `__proto__` into the object's prototype and silently drop that criterion; the result
 * has no prototype, so any header name is an ordinary key.
 */
const criteriaSchema = z
  .custom<Record<string, string>>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.values(v).every((t) => typeof t === 'string'),
    'searchCriteria must map column names to search text.',
  )
  .default({})
  .transform((criteria) => {
    // Spec section 5: search text is trimmed and empty entries removed; column names are trimmed.
    const out = Object.create(null) as Record<string, string>;
    for (const [column, text] of Object.entries(criteria)) {
      const name = column.trim();
      const term = text.trim();
      if (name && term) out[name] = term;
    }
    return out;
  });

/** Maximum rows a search page may ask for. */
export const MAX_PAGE_SIZE = 1000;
/** Maximum file ids in fileIds or excludedFileIds (spec section 5). */
export const MAX_FILE_FILTER = 25;

/**
 * A point in time given as an upload-date bound (ISO 8601 or `YYYY-MM-DD[ HH:MM[:SS]]`, read as UTC
 * when it names no zone), in ms since the epoch; NaN when it is not a date.
 *
 * @param text - the bound as the user gave it
 * @returns ms since the epoch, or NaN
 */
export function uploadBoundMs(text: string): number {
  const t = text.trim().replace(' ', 'T');
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(t) || !t.includes('T');
  return Date.parse(zoned ? t : `${t}Z`);
}

const uploadBound = z
  .string()
  .refine((s) => !Number.isNaN(uploadBoundMs(s)), 'Dates must be written as YYYY-MM-DD or in ISO 8601.');

/**
 * Sorting a search's rows: by one column's value (`sortBy`, a column name; English collation, so
 * case and accents count only between equal letters; blank cells last) in `sortOrder` (`asc` when
 * not given). Without it, or for a name no searched file has (the spec's Authors form
 * sends `createdAt`), rows come in file, sheet and row order.
 */
const sortFields = {
  sortBy: z.string().trim().max(1000).optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
};

/**
 * How criteria match (see matching.ts): a criterion finds cells containing its text regardless of
 * case and accents (`muller` finds `Müller` and `MÜLLER`, `Sorensen` finds `Sørensen`), since
 * author names from many countries are spelt with and without their accents in the same data.
 * `matchAccents: true` makes accents count (case still does not), for telling `Muller` from `Müller`.
 *
 * A record exported twice (the same DOI, Web of Science UT, Scopus EID or PubMed id, in two files
 * or twice in one) matches once, from the newest upload; `everyCopy: true` gives every copy
 * (`SearchResponse.copiesLeftOut` says how many were left out). Exports follow the same choice.
 */
const matchFields = {
  matchAccents: z.boolean().optional(),
  everyCopy: z.boolean().optional(),
};

/** Most columns a search may ask facets of, and most values a facet answers. */
export const MAX_FACET_COLUMNS = 8;
export const FACET_VALUES = 10;

/**
 * Facets (issue 23): `facets` names columns whose most frequent values among the matching rows come
 * back with their row counts (`SearchResponse.facets`, FACET_VALUES each), read by the engine with
 * the page. Meant for low-cardinality columns (year, document type, language, source title).
 */
const facetFields = {
  facets: z
    .array(z.string().trim().min(1).max(1000))
    .max(MAX_FACET_COLUMNS, `At most ${MAX_FACET_COLUMNS} facet columns can be shown at once.`)
    .optional(),
};

/** `POST /api/file/search` body (spec section 3). `page` is zero-based. */
export const searchRequestSchema = z.object({
  ...sortFields,
  ...matchFields,
  ...facetFields,
  fileIds: z
    .array(z.string())
    .max(MAX_FILE_FILTER, 'Maximum of 25 files can be selected at once. Please deselect some files first.')
    .optional(),
  excludedFileIds: z
    .array(z.string())
    .max(
      MAX_FILE_FILTER,
      'Maximum of 25 files can be excluded at once. Please remove some files from exclusion first.',
    )
    .optional(),
  sheetNames: z.array(z.string()).optional(),
  searchCriteria: criteriaSchema,
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  startDate: uploadBound.optional(),
  endDate: uploadBound.optional(),
});
export type SearchRequest = z.input<typeof searchRequestSchema>;
export type ParsedSearchRequest = z.output<typeof searchRequestSchema>;

/**
 * Reserved keys carried by every result row beside the column values. Header names equal to one of
 * these are renamed at ingest (`__fileName (2)`), so they never collide.
 */
export const ROW_META = {
  fileId: '__fileId',
  fileName: '__fileName',
  sheet: '__sheet',
  rowNumber: '__rowNumber',
  /**
   * An Authors row's row in the uploaded file (the record it was derived from); absent on other
   * rows, and on AUTHOR rows derived before it was kept. `rowNumber` is then the AUTHOR file's own.
   */
  sourceRow: '__sourceRow',
} as const;

/** A result row: column name → cell text, plus the ROW_META keys. */
export type ResultRow = Record<string, string | number>;

/** `POST /api/file/search` and `POST /api/file/preprocessed/search` answer. */
export interface SearchResponse {
  data: ResultRow[];
  totalRecords: number;
  totalPages: number;
  page: number;
  size: number;
  /** Column names of the searched files, in order (the union over files). */
  columns: string[];
  /** false: the search engine is unavailable; `message` says why. */
  searchAvailable: boolean;
  /**
   * Why the search could not run (searchAvailable false), or, when it ran, what the results lack
   * (a shard of the cluster that cannot be reached); null otherwise.
   */
  message: string | null;
  /** The facets asked for (`facets`), in the order asked, for the columns some searched file has. */
  facets?: SearchFacet[];
  /**
   * Matching rows left out as copies of a record in a newer upload (without `everyCopy`); absent
   * when none were.
   */
  copiesLeftOut?: number;
}

/** A column's most frequent non-blank values among a search's matching rows, with their row counts. */
export interface SearchFacet {
  column: string;
  values: { value: string; count: number }[];
  /**
   * The email-domain facet's (EMAIL_DOMAIN_FACET): the column a value's click searches, for
   * `@domain` as part of a value. Absent on a column's facet, whose click searches for the value.
   */
  searchColumn?: string;
}

/**
 * The facet of email domains, asked for among `facets` by this name: the matching rows counted by
 * the domains of the addresses in their email columns (headers with "email" or "e-mail"), a row
 * once per domain. `@domain` is not a header any export uses.
 */
export const EMAIL_DOMAIN_FACET = '@domain';

/**
 * Whether a header holds email addresses, for the email-domain facet.
 *
 * @param header - a column name
 * @returns true for headers with "email" or "e-mail" in them
 */
export function isEmailHeader(header: string): boolean {
  return /e-?mail/i.test(header);
}

/** `POST /api/file/preprocessed/search` body (Authors search over AUTHOR files). */
export const authorSearchRequestSchema = z.object({
  ...sortFields,
  ...matchFields,
  ...facetFields,
  searchCriteria: criteriaSchema,
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
export type AuthorSearchRequest = z.input<typeof authorSearchRequestSchema>;

/** A list of file ids in a query string (`a,b,c`) or a JSON body (array). */
const idListSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()).max(10_000).optional(),
);

/**
 * `POST /api/file/columns/for-files` (`fileIds`) and `POST /api/file/columns/excluding`
 * (`excludedFileIds`) bodies; `GET /api/file/columns` takes none. The answer is `string[]`: the
 * distinct column names of the caller's PROCESSED GENERAL files so chosen, first seen first.
 */
export const columnsRequestSchema = searchRequestSchema.pick({ fileIds: true, excludedFileIds: true });

/** Default and largest number of suggestions (spec section 9: 10, 5 for multi-column). */
export const SUGGESTION_LIMIT = 10;
export const MULTI_COLUMN_SUGGESTION_LIMIT = 5;
export const MAX_SUGGESTION_LIMIT = 50;

/**
 * Suggestions for one column: `GET /api/file/autocomplete/{regular|authors}/{columnName}` with query
 * parameters `query`, `limit`, `fileIds` (comma-joined), or `POST` with this as a JSON body (the
 * web app posts when it has more than 50 file ids, or any excluded ids). The answer is `string[]`:
 * distinct values containing `query` (regardless of case and accents; any value when empty), most frequent
 * first. Regular suggestions come from GENERAL files, authors suggestions from AUTHOR files.
 */
export const autocompleteRequestSchema = z.object({
  query: z.string().trim().max(500).default(''),
  limit: z.coerce.number().int().min(1).max(MAX_SUGGESTION_LIMIT).default(SUGGESTION_LIMIT),
  fileIds: idListSchema,
  excludedFileIds: idListSchema,
});
export type AutocompleteRequest = z.input<typeof autocompleteRequestSchema>;

/**
 * `GET /api/file/autocomplete/columns?columnNames=A,B&query=&limit=`: suggestions for several
 * columns at once (limit default 5 each). Answer: `ColumnSuggestions`, column name → values.
 */
export const multiColumnAutocompleteSchema = autocompleteRequestSchema.extend({
  columnNames: idListSchema,
  limit: z.coerce.number().int().min(1).max(MAX_SUGGESTION_LIMIT).default(MULTI_COLUMN_SUGGESTION_LIMIT),
});
export type ColumnSuggestions = Record<string, string[]>;

/**
 * `GET /api/file/autocomplete/search?query=&limit=`: values in any column of the caller's GENERAL
 * files containing `query`, most frequent first, each with its column.
 */
export interface ValueSuggestion {
  column: string;
  value: string;
}

/** `GET /api/file/files/autocomplete?query=&limit=`: the caller's files whose name contains `query`, newest first. */
export interface FileSuggestion {
  id: string;
  originalFilename: string;
  fileType: FileType;
}

/**
 * `POST /api/file/queries` body: a search to keep under a name (answer 201 `SavedQuery`).
 * `GET /api/file/queries` lists them newest first; `DELETE /api/file/queries/{id}` removes one (204).
 */
export const saveQueryRequestSchema = searchRequestSchema
  .omit({ page: true, size: true, facets: true })
  .extend({
    name: z.string().trim().min(1, 'Please give the search a name').max(200),
    fileType: z.enum(FILE_TYPES).default('GENERAL'),
  });
export type SaveQueryRequest = z.input<typeof saveQueryRequestSchema>;

/** A saved search: its name, the search it repeats, and when it was saved. */
export interface SavedQuery {
  id: string;
  name: string;
  fileType: FileType;
  searchCriteria: Record<string, string>;
  fileIds?: string[];
  excludedFileIds?: string[];
  sheetNames?: string[];
  startDate?: string;
  endDate?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  matchAccents?: boolean;
  everyCopy?: boolean;
  createdAt: string;
}
