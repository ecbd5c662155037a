/**
 * The SQL compiler of a row query: criteria, file and sheet filters to a WHERE clause with bound
 * parameters, the columns to read, and result rows back to cells by header. Pure: no query is run.
 */
import { rowsIdOf, type FileRow } from '../files.repository.ts';
import { exactValueOf } from '@sift/shared/contracts';
import { containsParts, containsTerm, ident, searchFoldSql } from '../sql.ts';
import { SOURCE_ROW_KEY, type RowHit, type RowKey, type RowQuery } from './types.ts';

/** A row query as SQL: its filter and parameters, the columns it reads and where they come back. */
export interface CompiledQuery {
  /** `WHERE …`, or `PREWHERE … WHERE …` when a criterion's term has fragments (see filterSql). */
  filter: string;
  params: Record<string, unknown>;
  select: string;
  physical: string[];
  useExtra: boolean;
  /** The fourth column selected is the AUTHOR rows' source row (text, '' when unknown). */
  sourceRow: boolean;
}

/**
 * The query as SQL, or null when it can match nothing (no files, or a criterion on a column none has).
 *
 * @param query - the files, criteria, sheets and headers to read
 * @returns the filter, its parameters and the columns to select, or null
 */
export function compileQuery(query: RowQuery): CompiledQuery | null {
  if (!query.files.length) return null;
  const params: Record<string, unknown> = { fileIds: query.files.map(rowsIdOf) };
  const always = ['file_id IN {fileIds:Array(String)}'];
  if (query.sheets?.length) {
    always.push('sheet IN {sheets:Array(String)}');
    params.sheets = query.sheets;
  }
  const narrow: string[] = [];
  const where: string[] = [];
  let n = 0;
  for (const [header, term] of Object.entries(query.criteria)) {
    const homes = columnHomes(query.files, header);
    if (!homes.physical.size && !homes.extra) return null; // no searched file has this column
    const k = n++;
    const values = [...homes.physical].map((c) => ident(c));
    if (homes.extra) {
      params[`h${k}`] = header;
      values.push(`extra[{h${k}:String}]`);
    }
    const exact = exactValueOf(term);
    if (exact !== null) {
      // The whole value, folded as the search folds (what a facet counted).
      // With matchAccents, the folded comparison beside it lets the column's text index serve it.
      params[`t${k}`] = exact;
      const equal = (v: string, accents: boolean) =>
        `${searchFoldSql(v, accents)} = ${searchFoldSql(`{t${k}:String}`, accents)}`;
      where.push(
        anyOf(
          values.map((v) =>
            query.matchAccents ? `(${equal(v, true)} AND ${equal(v, false)})` : equal(v, false),
          ),
        ),
      );
      continue;
    }
    const contains = containsTerm(`t${k}`, term);
    Object.assign(params, contains.params);
    const parts = values.map((v) => containsParts(v, contains, query.matchAccents));
    // Each alternative's match implies its fragments: any alternative's fragments, then any match.
    if (contains.fragments.length) narrow.push(anyOf(parts.map((p) => p.narrow!)));
    where.push(anyOf(parts.map((p) => p.match)));
  }
  const wanted = query.headers ? new Set(query.headers) : null;
  const physical = new Set<string>();
  let useExtra = false;
  for (const f of query.files) {
    for (const [h, c] of Object.entries(f.columnMap)) {
      if (wanted && !wanted.has(h)) continue;
      if (c) physical.add(c);
      else useExtra = true;
    }
  }
  const cols = [...physical];
  // AUTHOR rows: the row each came from, read from the overflow map (SOURCE_ROW_KEY).
  const sourceRow = query.files.some((f) => f.fileType === 'AUTHOR');
  if (sourceRow) params.sourceRowKey = SOURCE_ROW_KEY;
  const select = [
    'file_id',
    'sheet',
    'row_number',
    ...(sourceRow ? ['extra[{sourceRowKey:String}]'] : []),
    ...cols.map(ident),
    ...(useExtra ? ['extra'] : []),
  ].join(', ');
  return { filter: filterSql(always, narrow, where), params, select, physical: cols, useExtra, sourceRow };
}

/**
 * `conditions` joined by OR (one alone as it is).
 *
 * @param conditions - SQL conditions, at least one
 * @returns their disjunction
 */
export function anyOf(conditions: string[]): string {
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' OR ')})`;
}

/**
 * A read's filter of `rows` (what follows `FROM`): `always` (the files, sheets), the `narrow`
 * conditions the text skip index answers row by row (a term's fragments, see containsParts) and
 * the `rest`. With narrow conditions, they and `always` are a PREWHERE and the rest the WHERE, so
 * the rows they rule out are never folded; otherwise one WHERE. A term the index holds whole stays
 * in the WHERE, where the engine answers it from the index (as a PREWHERE of its own, a count with
 * matchAccents read several times longer). Conditions appended as `AND …` join the WHERE.
 *
 * @param always - conditions every read has (files, sheets)
 * @param narrow - conditions the text skip index answers row by row
 * @param rest - every other condition
 * @returns `WHERE …` or `PREWHERE … WHERE …`
 */
export function filterSql(always: string[], narrow: string[], rest: string[]): string {
  return narrow.length
    ? `PREWHERE ${[...always, ...narrow].join(' AND ')} WHERE ${rest.join(' AND ')}`
    : `WHERE ${[...always, ...rest].join(' AND ')}`;
}

/**
 * SQL for a header's value in a row of any of `files` (its physical columns, or the overflow map
 * keyed by the query parameter `param` holding the header), or null when no file has the header.
 *
 * @param files - the files read
 * @param header - the header
 * @param param - the parameter that will hold the header, for the overflow map
 * @returns SQL of the value, or null
 */
export function valueOf(files: FileRow[], header: string, param: string): string | null {
  const homes = columnHomes(files, header);
  const values = [...homes.physical].map((c) => ident(c));
  if (homes.extra) values.push(`extra[{${param}:String}]`);
  if (!values.length) return null;
  return values.length === 1
    ? values[0]!
    : `coalesce(${values.map((v) => `nullIf(${v}, '')`).join(', ')}, '')`;
}

/**
 * Where a header's values live over `files`: their physical columns, and whether some are in the overflow map.
 *
 * @param files - the files read
 * @param header - the header
 * @returns the physical columns and whether the overflow map holds some
 */
export function columnHomes(files: FileRow[], header: string): { physical: Set<string>; extra: boolean } {
  const physical = new Set<string>();
  let extra = false;
  for (const f of files) {
    if (!Object.hasOwn(f.columnMap, header)) continue;
    const c = f.columnMap[header];
    if (c) physical.add(c);
    else extra = true;
  }
  return { physical, extra };
}

/**
 * Result rows (as selected by `c.select`) as hits with cells keyed by header.
 *
 * @param query - the query the rows answer
 * @param c - its compiled form
 * @param rows - the result rows, as JSONCompactEachRow
 * @returns the hits, in order
 */
export function toHits(query: RowQuery, c: CompiledQuery, rows: unknown[][]): RowHit[] {
  const byId = new Map(query.files.map((f) => [rowsIdOf(f), f]));
  const first = c.sourceRow ? 4 : 3;
  const position = new Map(c.physical.map((name, i) => [name, first + i]));
  const wanted = query.headers ? new Set(query.headers) : null;
  return rows.map((r) => {
    const file = byId.get(r[0] as string)!;
    const extra = (c.useExtra ? r[r.length - 1] : {}) as Record<string, string>;
    const cells = Object.create(null) as Record<string, string>;
    for (const [h, col] of Object.entries(file.columnMap)) {
      if (wanted && !wanted.has(h)) continue;
      cells[h] = col ? String(r[position.get(col)!] ?? '') : Object.hasOwn(extra, h) ? extra[h]! : '';
    }
    const hit: RowHit = {
      fileId: file.id,
      rowsId: r[0] as string,
      sheet: r[1] as string,
      rowNumber: Number(r[2]),
      cells,
    };
    if (c.sourceRow && r[3]) hit.sourceRow = Number(r[3]);
    return hit;
  });
}

/**
 * The condition `(file_id, sheet, row_number) <op> key` with its parameters under `name`
 * (`{nameFile}`, `{nameSheet}`, `{nameRow}`), or nothing when there is no key: how keyset pages
 * and export pieces are bounded.
 *
 * @param op - `>` (after the key) or `<=` (up to it)
 * @param key - the bound, or null for none
 * @param name - the parameters' prefix
 * @returns the condition (with a leading AND) and its parameters
 */
export function keyBound(
  op: '>' | '<=',
  key: RowKey | null,
  name: string,
): { sql: string; params: Record<string, unknown> } {
  if (!key) return { sql: '', params: {} };
  return {
    sql: `AND (file_id, sheet, row_number) ${op} ({${name}File:String}, {${name}Sheet:String}, {${name}Row:UInt32})`,
    params: { [`${name}File`]: key[0], [`${name}Sheet`]: key[1], [`${name}Row`]: key[2] },
  };
}
