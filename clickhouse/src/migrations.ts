import type { ClickHouseClient } from '@clickhouse/client';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ident } from './sql.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Creates `database` if needed and applies the numbered `migrations/NNN_name.sql` files in order,
 * each once, recording them in `schema_migrations`. Statements are separated by `;` at line end and
 * use `{db}` for the quoted database name. Idempotent: safe to call at every start-up.
 */
export async function migrate(client: ClickHouseClient, database: string): Promise<string[]> {
  const db = ident(database);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations (name String, applied_at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY name`,
  });
  const done = await client.query({
    query: `SELECT name FROM ${db}.schema_migrations`,
    format: 'JSONEachRow',
  });
  const applied = new Set((await done.json<{ name: string }>()).map((r) => r.name));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const text = (await readFile(MIGRATIONS_DIR + file, 'utf8')).replaceAll('{db}', db);
    const statements = text
      .split(/;\s*$/m)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter(Boolean);
    for (const query of statements) await client.command({ query });
    await client.insert({
      table: `${db}.schema_migrations`,
      values: [{ name: file }],
      format: 'JSONEachRow',
    });
    ran.push(file);
  }
  return ran;
}
