/**
 * The statements the ON CLUSTER path sends: they cannot run on this machine's test-only servers (no
 * Keeper, no DDL worker), so their text is checked here, as a real cluster will receive it (the
 * containers suite runs them). A recording client stands in for the server.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { TableLayout } from './layout.ts';
import { migrate } from './migrations.ts';

/** A client that records each command's text and parameters and answers every query with no rows. */
function recordingClient() {
  const commands: { query: string; params: unknown }[] = [];
  const client = {
    command: async ({ query, query_params }: { query: string; query_params?: unknown }) => {
      commands.push({ query: query.replace(/\s+/g, ' ').trim(), params: query_params });
      return {};
    },
    query: async () => ({ json: async () => [] }),
    insert: async () => ({}),
  } as unknown as ClickHouseClient;
  return { client, commands };
}

const cluster = { name: 'sift', replicated: true, nodeUrls: [] };

describe('TableLayout on a replicated cluster, ON CLUSTER', () => {
  it('lays the schema out with Replicated engines, rows_local and a Distributed rows, every statement ON CLUSTER', async () => {
    const { client, commands } = recordingClient();
    const layout = new TableLayout(client, 'sift', cluster);
    expect(layout.ddlPath).toBe('on-cluster');
    await migrate(client, layout);
    const statements = commands.map((c) => c.query);
    expect(statements.every((q) => q.includes(' ON CLUSTER `sift`'))).toBe(true);
    expect(statements).toContain(
      "CREATE TABLE IF NOT EXISTS `sift`.schema_migrations ON CLUSTER `sift` (name String, applied_at DateTime DEFAULT now()) ENGINE = ReplicatedMergeTree('/clickhouse/tables/sift/{database}/{table}', '{shard}-{replica}') ORDER BY name",
    );
    const engineOf = (table: string) =>
      statements
        .find((q) => q.startsWith(`CREATE TABLE IF NOT EXISTS \`sift\`.${table} `))
        ?.match(/ENGINE = (.*?)( ORDER BY|$)/)?.[1];
    for (const table of ['accounts', 'files', 'documents']) {
      expect(engineOf(table)).toBe(
        "ReplicatedReplacingMergeTree('/clickhouse/tables/sift/{database}/{table}', '{shard}-{replica}', version, is_deleted)",
      );
    }
    expect(engineOf('rows_local')).toBe(
      "ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')",
    );
    expect(engineOf('rows')).toBe('Distributed(`sift`, `sift`, rows_local, cityHash64(file_id))');
    // One account's people on one shard.
    expect(engineOf('people')).toBe('Distributed(`sift`, `sift`, people_local, cityHash64(account_id))');
    expect(statements).toContain(
      'ALTER TABLE `sift`.rows_local ON CLUSTER `sift` MODIFY COLUMN file_id LowCardinality(String)',
    );
    expect(statements).toContain(
      'ALTER TABLE `sift`.rows ON CLUSTER `sift` MODIFY COLUMN file_id LowCardinality(String)',
    );
  });

  it('sends a statement once, its parameters written in as literals', async () => {
    const { client, commands } = recordingClient();
    const layout = new TableLayout(client, 'sift', cluster);
    await layout.everyNode(
      `DELETE FROM ${layout.rowsLocal}${layout.onCluster} WHERE file_id IN {ids:Array(String)}`,
      {
        query_params: { ids: ["a'1", 'b'] },
      },
    );
    expect(commands).toEqual([
      {
        query:
          "DELETE FROM `sift`.rows_local ON CLUSTER `sift` WHERE file_id IN CAST(['a\\'1', 'b'] AS Array(String))",
        params: undefined,
      },
    ]);
  });
});

describe('TableLayout on one node', () => {
  it('keeps the single-node schema: plain engines, no ON CLUSTER, no Distributed table', async () => {
    const { client, commands } = recordingClient();
    const layout = new TableLayout(client, 'sift');
    await migrate(client, layout);
    const statements = commands.map((c) => c.query);
    expect(statements.some((q) => /ON CLUSTER|Replicated|Distributed|rows_local/.test(q))).toBe(false);
    expect(statements).toContain('ALTER TABLE `sift`.rows MODIFY COLUMN file_id LowCardinality(String)');
  });
});
