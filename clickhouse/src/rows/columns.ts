import {
  indexedColumnOf,
  MAX_TEXT_INDEXES,
  textIndexDefinition,
  textIndexName,
  wantsTextIndex,
} from '../skip-index.ts';
import { FOLD_FUNCTION, foldFunctionDefinition, ident } from '../sql.ts';
import { REACHABLE_NODES_READ } from '../layout.ts';
import { MAX_PHYSICAL_COLUMNS, physicalColumnName, type ColumnBudget, type RowsTable } from './types.ts';

/** The physical columns of `rows` and their skip indexes: one column per distinct header, added at ingest. */
export class RowColumns {
  constructor(private readonly t: RowsTable) {}

  /**
   * Makes sure every header has a home: its physical column (added with ADD COLUMN IF NOT EXISTS,
   * so concurrent workers cannot race) or, past {@link MAX_PHYSICAL_COLUMNS}, the overflow map.
   * A new column gets a text skip index unless its values in `sample` (rows aligned with
   * `headers`, e.g. the first insert batch) look ID-like ({@link wantsTextIndex}); the decision is
   * made once, when the column is created, and at most MAX_TEXT_INDEXES columns are indexed.
   * Columns and indexes created are spent from `budget` (one file's MAX_NEW_COLUMNS_PER_FILE, its
   * account's share of indexes); past its columns, new headers overflow too. Returns header → physical column name, '' for overflow.
   */
  async ensureColumns(
    headers: string[],
    sample: string[][] = [],
    budget: ColumnBudget = { remaining: Infinity },
  ): Promise<Record<string, string>> {
    // Read afresh each time (once a sheet): another process may have added columns, or a restore
    // may have taken some away.
    const known = await this.#physical();
    const missing = headers.filter((h) => !known.has(physicalColumnName(h)));
    if (missing.length) {
      const room = Math.max(0, Math.min(MAX_PHYSICAL_COLUMNS - known.size, budget.remaining));
      let indexRoom = Math.min(
        MAX_TEXT_INDEXES - (await this.indexedColumns()).size,
        budget.indexes ?? Infinity,
      );
      const toAdd = new Map<string, boolean>();
      for (const h of missing) {
        const c = physicalColumnName(h);
        if (known.has(c) || toAdd.has(c) || toAdd.size >= room) continue;
        const i = headers.indexOf(h);
        const indexed = indexRoom > 0 && wantsTextIndex(sample.map((row) => row[i] ?? ''));
        if (indexed) indexRoom--;
        toAdd.set(c, indexed);
      }
      if (toAdd.size) {
        const column = (c: string) => `ADD COLUMN IF NOT EXISTS ${ident(c)} String DEFAULT ''`;
        const clauses = [...toAdd].flatMap(([c, indexed]) => [
          column(c),
          ...(indexed ? [`ADD INDEX IF NOT EXISTS ${textIndexDefinition(c)}`] : []),
        ]);
        // The table that stores rows gets the columns and their indexes; on a cluster, the
        // Distributed table over it gets the columns first (a column is known once both have it).
        const { layout } = this.t;
        if (layout.cluster) {
          const columns = [...toAdd.keys()].map(column).join(', ');
          await layout.everyNode(`ALTER TABLE ${layout.rows}${layout.onCluster} ${columns}`);
        }
        await layout.everyNode(`ALTER TABLE ${layout.rowsLocal}${layout.onCluster} ${clauses.join(', ')}`);
        budget.remaining -= toAdd.size;
        if (budget.indexes !== undefined) budget.indexes -= [...toAdd.values()].filter(Boolean).length;
        for (const c of toAdd.keys()) known.add(c);
      }
    }
    const map = Object.create(null) as Record<string, string>;
    for (const h of headers) {
      const c = physicalColumnName(h);
      map[h] = known.has(c) ? c : '';
    }
    return map;
  }

  /** Physical columns of `rows` that carry a text skip index (read from the table that stores rows). */
  async indexedColumns(): Promise<Set<string>> {
    return new Set((await this.#textIndexes()).map((i) => i.column));
  }

  /**
   * Creates the engine's fold function (sql.ts FOLD_FUNCTION: it lives outside the database, so a
   * restored database or a new server may lack it), then rebuilds on the folded value (skip-index.ts
   * `textIndexDefinition`) every text index still on a column's raw value, as Sift built them
   * before accent-insensitive matching: the index is replaced, then materialised in the background
   * (a mutation). Until a part's index is rebuilt, searches read that part whole: slower, never
   * wrong. Resolves with the columns changed.
   */
  async prepareFolding(): Promise<string[]> {
    const { layout } = this.t;
    // Made where a node that answers lacks it (none: no statement for the nodes, so a process
    // starts while one of them is down).
    if (!(await this.#foldFunctionEverywhere()))
      await layout.everyNode(foldFunctionDefinition(layout.onCluster));
    const raw = (await this.#textIndexes()).filter((i) => i.expr.replaceAll('`', '') === i.column);
    for (const { column } of raw) {
      const name = ident(textIndexName(column));
      await layout.everyNode(
        `ALTER TABLE ${layout.rowsLocal}${layout.onCluster} DROP INDEX IF EXISTS ${name}, ADD INDEX ${textIndexDefinition(column)}`,
      );
      await layout.everyNode(`ALTER TABLE ${layout.rowsLocal}${layout.onCluster} MATERIALIZE INDEX ${name}`);
    }
    return raw.map((i) => i.column);
  }

  /** Whether every node that answers has the fold function (FOLD_FUNCTION). */
  async #foldFunctionEverywhere(): Promise<boolean> {
    const { layout } = this.t;
    const rs = await this.t.client.query({
      query: `SELECT (SELECT count() FROM ${layout.system('functions')} WHERE name = {f:String})
                = (SELECT count() FROM ${layout.system('one')})`,
      query_params: { f: FOLD_FUNCTION },
      format: 'JSONCompactEachRow',
      clickhouse_settings: REACHABLE_NODES_READ,
    });
    return Number((await rs.json<[number | string]>())[0]?.[0]) === 1;
  }

  async #textIndexes(): Promise<{ column: string; expr: string }[]> {
    const rs = await this.t.client.query({
      query: `SELECT name, expr FROM system.data_skipping_indices WHERE database = {db:String} AND table = {t:String} AND type = 'text'`,
      query_params: { db: this.t.db, t: this.t.layout.rowsLocalName },
      format: 'JSONEachRow',
    });
    return (await rs.json<{ name: string; expr: string }>()).flatMap(({ name, expr }) => {
      const column = indexedColumnOf(name);
      return column ? [{ column, expr }] : [];
    });
  }

  /**
   * The physical columns every node has: on a cluster, those both `rows` and `rows_local` have on
   * every node that answers (a schema change that reached only some is made again by the next
   * ensureColumns; a node that cannot be reached gets it when it is back: NodeCatchUp).
   */
  async #physical(): Promise<Set<string>> {
    const { layout } = this.t;
    const tables = `database = {db:String} AND table IN ('rows', 'rows_local')`;
    const query = layout.cluster
      ? `SELECT name FROM ${layout.system('columns')} WHERE ${tables} AND startsWith(name, 'c_')
         GROUP BY name HAVING count() = (SELECT count() FROM ${layout.system('tables')}
           WHERE database = {db:String} AND name IN ('rows', 'rows_local'))`
      : `SELECT name FROM system.columns WHERE database = {db:String} AND table = 'rows' AND startsWith(name, 'c_')`;
    const rs = await this.t.client.query({
      query,
      query_params: { db: this.t.db },
      format: 'JSONEachRow',
      clickhouse_settings: REACHABLE_NODES_READ,
    });
    return new Set((await rs.json<{ name: string }>()).map((r) => r.name));
  }
}
