import { rowsIdOf, type FileRow } from '../files.repository.ts';
import { valueOf } from './criteria-sql.ts';
import type { Contact, RowsTable } from './types.ts';

/**
 * The distinct contacts of AUTHOR files: one per email address (trimmed, lower-cased, sorted),
 * with the names it was paired with (from the first of `nameHeaders` a row fills) and the files
 * holding it, in batches of at most `batchSize` read by keyset on the email (bounded memory).
 *
 * @param t - the rows table
 * @param files - the AUTHOR files to read
 * @param emailHeader - the email column's header
 * @param nameHeaders - the name columns' headers, preferred first
 * @param batchSize - contacts per batch
 * @returns the contacts, batch by batch, by email
 */
export async function* contacts(
  t: RowsTable,
  files: FileRow[],
  emailHeader: string,
  nameHeaders: string[],
  batchSize = 50_000,
): AsyncGenerator<Contact[]> {
  const email = valueOf(files, emailHeader, 'he');
  if (!files.length || !email) return;
  const params: Record<string, unknown> = {
    fileIds: files.map(rowsIdOf),
    he: emailHeader,
    limit: batchSize,
  };
  const names = nameHeaders.flatMap((h, i) => {
    params[`hn${i}`] = h;
    const v = valueOf(files, h, `hn${i}`);
    return v ? [`nullIf(trimBoth(${v}), '')`] : [];
  });
  const name = names.length ? `coalesce(${names.join(', ')}, '')` : `''`;
  // The rows are under their files' row ids; a contact names the files.
  const fileIdOf = new Map(files.map((f) => [rowsIdOf(f), f.id]));
  let after = '';
  for (;;) {
    const rs = await t.client.query({
      query: `SELECT e, arraySort(groupUniqArrayIf(n, n != '')), arraySort(groupUniqArray(file_id))
              FROM (SELECT lower(trimBoth(${email})) AS e, ${name} AS n, file_id FROM ${t.table}
                    WHERE file_id IN {fileIds:Array(String)})
              WHERE e != '' AND e > {after:String}
              GROUP BY e ORDER BY e LIMIT {limit:UInt64}`,
      query_params: { ...params, after },
      format: 'JSONCompactEachRow',
    });
    const batch = (await rs.json<[string, string[], string[]]>()).map(([e, n, f]) => ({
      email: e,
      names: n,
      fileIds: f.map((rowsId) => fileIdOf.get(rowsId) ?? rowsId),
    }));
    if (batch.length) yield batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1]!.email;
  }
}
