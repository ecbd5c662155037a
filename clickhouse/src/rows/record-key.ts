/**
 * The identity of a bibliographic record across files, for showing the same record exported twice
 * once: its DOI (lower-case, without a `https://doi.org/` or `doi:` prefix), else Web of Science's
 * accession number (`UT`), Scopus's `EID`, the PubMed id or the Lens ID, as the columns are named
 * after Sift names them (tags included). bibliometrix removes duplicates by DOI and database id
 * alike.
 */
import type { FileRow } from '../files.repository.ts';
import { stringLiteral } from '../sql.ts';
import { valueOf } from './criteria-sql.ts';

/**
 * Record id columns, strongest first: each kind's headers as the sources name them (OpenAlex's CSV
 * writes `doi` and `ids.pmid` as links), the prefix a value may carry, and the form a value must
 * have once normalised to count: a placeholder such as `NA` or `-` is no id (R writes `NA` for an
 * empty cell), so rows holding one are never taken for copies of each other.
 */
export const RECORD_ID_HEADERS: readonly {
  kind: string;
  headers: readonly string[];
  /** A prefix removed first (case-insensitive, an RE2 pattern without backslashes). */
  prefix?: string;
  case: 'lower' | 'upper';
  /** What a normalised value must match (RE2, without backslashes). */
  form: string;
}[] = [
  {
    kind: 'doi',
    headers: ['DOI', 'doi'],
    prefix: '^(https?://(dx[.])?doi[.]org/|doi:[[:space:]]*)',
    case: 'lower',
    form: '^10[.][0-9]{4,9}/[^[:space:]]+$',
  },
  { kind: 'ut', headers: ['UT (Unique WOS ID)'], case: 'upper', form: '^[A-Z]{2,12}:[0-9A-Z.-]{5,}$' },
  { kind: 'eid', headers: ['EID'], case: 'lower', form: '^2-s2[.]0-[0-9]+$' },
  {
    kind: 'pmid',
    headers: ['PMID', 'Pubmed Id', 'PubMed ID', 'ids.pmid'],
    prefix: '^https?://pubmed[.]ncbi[.]nlm[.]nih[.]gov/',
    case: 'lower',
    form: '^[0-9]{1,9}$',
  },
  {
    kind: 'lens',
    headers: ['Lens ID'],
    case: 'upper',
    form: '^[0-9]{3}-[0-9]{3}-[0-9]{3}-[0-9]{3}-[0-9]{2}[0-9X]$',
  },
];

/**
 * SQL of a row's record key over `files` (`doi:10.1000/x`, `ut:WOS:…`, `eid:2-s2.0-…`, `pmid:…`,
 * `lens:…`; the first id of the row that has the form of its kind, else '' for a row with none),
 * and the parameters it uses (named from `prefix`); null when no file has a record id column.
 *
 * @param files - the files read
 * @param prefix - what the parameters' names start with (unique in the query)
 * @returns the SQL and its parameters, or null
 */
export function recordKeySql(
  files: FileRow[],
  prefix: string,
): { sql: string; params: Record<string, string> } | null {
  const params: Record<string, string> = {};
  const branches: string[] = [];
  let n = 0;
  for (const id of RECORD_ID_HEADERS) {
    for (const header of id.headers) {
      const param = `${prefix}${n++}`;
      const value = valueOf(files, header, param);
      if (!value) continue;
      params[param] = header;
      const cased = `${id.case}UTF8(trimBoth(${value}))`;
      const normal = id.prefix
        ? `replaceRegexpOne(${cased}, ${stringLiteral(`(?i)${id.prefix}`)}, '')`
        : cased;
      branches.push(`match(${normal}, ${stringLiteral(id.form)}), concat('${id.kind}:', ${normal})`);
    }
  }
  if (!branches.length) return null;
  return { sql: `multiIf(${branches.join(', ')}, '')`, params };
}
