/**
 * The identity of a bibliographic record across files, for counting the same record exported
 * twice: its DOI (lower-case, without a `https://doi.org/` or `doi:` prefix), else Web of Science's
 * accession number (`UT`), Scopus's `EID`, or the PubMed id, as the columns are named after Sift
 * names them (tags included). bibliometrix removes duplicates by DOI and database id alike.
 */
import type { FileRow } from '../files.repository.ts';
import { valueOf } from './criteria-sql.ts';

/** Record id columns, strongest first: each kind's headers as the sources name them. */
export const RECORD_ID_HEADERS: readonly { kind: string; headers: readonly string[] }[] = [
  { kind: 'doi', headers: ['DOI'] },
  { kind: 'ut', headers: ['UT (Unique WOS ID)'] },
  { kind: 'eid', headers: ['EID'] },
  { kind: 'pmid', headers: ['PMID', 'Pubmed Id', 'PubMed ID'] },
];

/**
 * SQL of a row's record key over `files` (`doi:10.1000/x`, `ut:WOS:…`, `eid:2-s2.0-…`, `pmid:…`,
 * or '' for a row with none), and the parameters it uses (named from `prefix`); null when no file
 * has a record id column.
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
  for (const { kind, headers } of RECORD_ID_HEADERS) {
    for (const header of headers) {
      const param = `${prefix}${n++}`;
      const value = valueOf(files, header, param);
      if (!value) continue;
      params[param] = header;
      const v = `trimBoth(${value})`;
      const normal =
        kind === 'doi'
          ? `replaceRegexpOne(lowerUTF8(${v}), '^(https?://(dx\\\\.)?doi\\\\.org/|doi:\\\\s*)', '')`
          : `upperUTF8(${v})`;
      branches.push(`${v} != '', concat('${kind}:', ${normal})`);
    }
  }
  if (!branches.length) return null;
  return { sql: `multiIf(${branches.join(', ')}, '')`, params };
}
