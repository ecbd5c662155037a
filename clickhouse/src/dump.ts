import type { ClickHouseClient } from '@clickhouse/client';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ident } from './sql.ts';

/** One table in a dump: its name and how many rows (row versions, for ReplacingMergeTree) it held when the dump began. */
export interface TableDump {
  table: string;
  rows: number;
}

/** Rows kept through a load: the current rows of `table` matching `where` are put back after it. */
export interface KeptRows {
  table: string;
  /** SQL condition on the table's columns (trusted text: written by Sift, never by a user). */
  where: string;
}

/** The engine reads and writes dump files with one thread, in small blocks (bounded memory). */
const DUMP_SETTINGS = { max_threads: 1, max_block_size: '8192', max_insert_threads: '1' } as const;
const STAGING_SUFFIX = '__restore';
const sqlFile = (dir: string, table: string) => path.join(dir, `${table}.sql`);
const dataFile = (dir: string, table: string) => path.join(dir, `${table}.native.zst`);

/**
 * The names of the files a dump of these tables consists of (see dumpDatabase).
 *
 * @param tables - the tables of a dump
 * @returns the file names, relative to the dump's directory
 */
export function dumpFiles(tables: TableDump[]): string[] {
  return tables.flatMap(({ table }) => [
    path.basename(sqlFile('', table)),
    path.basename(dataFile('', table)),
  ]);
}

/**
 * Writes every table of database `db` to `dir` (which must exist): `<table>.sql`, its CREATE
 * statement, and `<table>.native.zst`, every row in the engine's Native format, zstd-compressed,
 * written by the engine itself. Embedded engine only: a server would write to its own disk.
 * Returns the tables and their row counts.
 *
 * @param client - the embedded engine's client
 * @param db - the database
 * @param dir - an existing directory
 * @returns the tables written
 */
export async function dumpDatabase(client: ClickHouseClient, db: string, dir: string): Promise<TableDump[]> {
  const dumps: TableDump[] = [];
  for (const table of await tablesOf(client, db)) {
    const rs = await client.query({
      query: `SHOW CREATE TABLE ${ident(db)}.${ident(table)}`,
      format: 'JSONEachRow',
    });
    const [created] = await rs.json<{ statement: string }>();
    await writeFile(sqlFile(dir, table), created!.statement);
    const rows = await countRows(client, db, table);
    await client.command({
      query: `INSERT INTO FUNCTION file({path:String}, 'Native') SELECT * FROM ${ident(db)}.${ident(table)}`,
      query_params: { path: dataFile(dir, table) },
      clickhouse_settings: { ...DUMP_SETTINGS, engine_file_truncate_on_insert: 1 },
    });
    dumps.push({ table, rows });
  }
  return dumps;
}

/**
 * Replaces the listed tables of `db` with their dumps in `dir`. Each table is first created and
 * filled under a staging name; only when all are loaded are they swapped in (EXCHANGE TABLES) and
 * the previous contents dropped, so a failure while loading leaves the current tables as they were.
 * The rows `keep` names are copied from the previous contents into the loaded table before the
 * previous contents are dropped. Tables of `db` not in the dump are left alone.
 *
 * @param client - the embedded engine's client
 * @param db - the database
 * @param dir - the dump's directory
 * @param tables - the tables to load
 * @param keep - rows to carry over from the current tables
 * @throws the engine's error; the current tables stay as they were
 */
export async function loadDatabase(
  client: ClickHouseClient,
  db: string,
  dir: string,
  tables: TableDump[],
  keep: KeptRows[] = [],
): Promise<void> {
  const name = (table: string, staged = false) =>
    `${ident(db)}.${ident(staged ? table + STAGING_SUFFIX : table)}`;
  try {
    for (const { table } of tables) {
      await client.command({ query: `DROP TABLE IF EXISTS ${name(table, true)}` });
      const statement = await readFile(sqlFile(dir, table), 'utf8');
      // The statement names the table it was dumped from; create the staging table instead.
      const body = statement.replace(/^CREATE TABLE\s+\S+/, '');
      await client.command({ query: `CREATE TABLE ${name(table, true)} ${body}` });
      const columns = await client.query({
        // The columns `SELECT *` dumped: not those the engine computes (MATERIALIZED, e.g. people's rank).
        query: `SELECT name, type FROM system.columns WHERE database = {db:String} AND table = {t:String}
                AND default_kind NOT IN ('MATERIALIZED', 'ALIAS', 'EPHEMERAL') ORDER BY position`,
        query_params: { db, t: table + STAGING_SUFFIX },
        format: 'JSONEachRow',
      });
      const structure = (await columns.json<{ name: string; type: string }>())
        .map((c) => `${ident(c.name)} ${c.type}`)
        .join(', ');
      await client.command({
        query: `INSERT INTO ${name(table, true)} SELECT * FROM file({path:String}, 'Native', {structure:String})`,
        query_params: { path: dataFile(dir, table), structure },
        clickhouse_settings: DUMP_SETTINGS,
      });
    }
    // Everything loaded: swap each table in (the staging name then holds the previous contents).
    const existing = new Set(await tablesOf(client, db));
    for (const { table } of tables) {
      if (existing.has(table)) {
        await client.command({ query: `EXCHANGE TABLES ${name(table)} AND ${name(table, true)}` });
      } else {
        await client.command({ query: `RENAME TABLE ${name(table, true)} TO ${name(table)}` });
      }
    }
    for (const k of keep) {
      if (!existing.has(k.table) || !tables.some((t) => t.table === k.table)) continue;
      await client.command({
        query: `INSERT INTO ${name(k.table)} SELECT * FROM ${name(k.table, true)} WHERE ${k.where}`,
      });
    }
  } finally {
    for (const { table } of tables)
      await client.command({ query: `DROP TABLE IF EXISTS ${name(table, true)}` });
  }
}

/** The tables of `db` (no staging tables left by an interrupted load). */
async function tablesOf(client: ClickHouseClient, db: string): Promise<string[]> {
  const rs = await client.query({
    query: `SELECT name FROM system.tables WHERE database = {db:String} AND NOT is_temporary AND NOT endsWith(name, {suffix:String}) ORDER BY name`,
    query_params: { db, suffix: STAGING_SUFFIX },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ name: string }>()).map((r) => r.name);
}

async function countRows(client: ClickHouseClient, db: string, table: string): Promise<number> {
  const rs = await client.query({
    query: `SELECT count() AS n FROM ${ident(db)}.${ident(table)}`,
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ n: number }>();
  return Number(row?.n ?? 0);
}
