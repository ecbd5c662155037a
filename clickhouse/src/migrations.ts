import type { ClickHouseClient } from '@clickhouse/client';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TableLayout } from './layout.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Creates the layout's database if needed and applies the numbered `migrations/NNN_name.sql` files
 * in order, each once, recording them in `schema_migrations`. Statements are separated by `;` at
 * line end. Placeholders lay the tables out on one node or a cluster (see layout.ts):
 * - `{db}`: the quoted database; `{on_cluster}`: ` ON CLUSTER …` when statements go once to the
 *   whole cluster, else empty (every statement is run with {@link TableLayout.everyNode});
 * - `{local:NAME}`: the table that stores a sharded table's rows (NAME, or NAME_local on a cluster);
 * - `{everywhere:ENGINE}` / `{per_shard:ENGINE}`: ENGINE, or its Replicated form for a table whole
 *   on every node / one per shard; `{distributed:NAME}`: the Distributed engine of NAME over every
 *   shard's NAME_local, sharded by `file_id` (`{distributed:NAME:COLUMN}`: by COLUMN);
 * - `{if_cluster}` first in a statement: run it on a cluster only.
 * Idempotent: safe to call at every start-up. Resolves with the names of the files applied now.
 *
 * @param client - a client of the server (or chDB)
 * @param layout - one node or a cluster, and the database
 * @returns the names of the migrations applied now (none when all were applied before)
 * @throws the engine's error when a statement fails; later migrations are not applied
 */
export async function migrate(client: ClickHouseClient, layout: TableLayout): Promise<string[]> {
  const { db, onCluster } = layout;
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  let applied = await appliedMigrations(client, layout);
  // Everything applied: no statement for the nodes at all, so a process starts while one of them
  // is down (ON CLUSTER would wait for it; docs/operations.md, "A node down").
  if (applied && files.every((f) => applied!.has(f))) return [];
  await layout.everyNode(`CREATE DATABASE IF NOT EXISTS ${db}${onCluster}`);
  await layout.everyNode(
    `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations${onCluster} (name String, applied_at DateTime DEFAULT now()) ENGINE = ${layout.everywhereEngine('MergeTree')} ORDER BY name`,
  );
  applied = (await appliedMigrations(client, layout)) ?? new Set();
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const text = await readFile(MIGRATIONS_DIR + file, 'utf8');
    const statements = text
      .split(/;\s*$/m)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter(Boolean)
      .flatMap((s) => {
        if (!s.startsWith('{if_cluster}')) return [s];
        return layout.cluster ? [s.slice('{if_cluster}'.length).trim()] : [];
      })
      .map((s) => expand(s, layout));
    for (const query of statements) await layout.everyNode(query);
    await client.insert({
      table: `${db}.schema_migrations`,
      values: [{ name: file }],
      format: 'JSONEachRow',
    });
    ran.push(file);
  }
  return ran;
}

/** The migrations applied (`schema_migrations` on the node `client` reaches), null when none ever was. */
async function appliedMigrations(client: ClickHouseClient, layout: TableLayout): Promise<Set<string> | null> {
  const rs = await client.query({
    query: `SELECT count() FROM system.tables WHERE database = {db:String} AND name = 'schema_migrations'`,
    query_params: { db: layout.database },
    format: 'JSONCompactEachRow',
  });
  if (!Number((await rs.json<[string]>())[0]?.[0])) return null;
  const done = await client.query({
    query: `SELECT name FROM ${layout.db}.schema_migrations`,
    format: 'JSONEachRow',
  });
  return new Set((await done.json<{ name: string }>()).map((r) => r.name));
}

/** A migration statement with Sift's placeholders written out (ClickHouse's own macros are kept). */
function expand(statement: string, layout: TableLayout): string {
  return statement.replace(
    /\{(db|on_cluster|local:(\w+)|distributed:(\w+)(?::(\w+))?|everywhere:([^{}]+)|per_shard:([^{}]+))\}/g,
    (
      _,
      name: string,
      local?: string,
      distributed?: string,
      shardKey?: string,
      everywhere?: string,
      perShard?: string,
    ) => {
      if (local) return layout.localName(local);
      if (distributed) return layout.distributedEngine(distributed, shardKey);
      if (everywhere) return layout.everywhereEngine(everywhere);
      if (perShard) return layout.shardEngine(perShard);
      return name === 'db' ? layout.db : layout.onCluster;
    },
  );
}
