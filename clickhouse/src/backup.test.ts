import { describe, expect, it } from 'vitest';
import { stagedTableDefinition } from './backup.ts';

describe('stagedTableDefinition', () => {
  it('gives a Replicated twin a Keeper path of its own, on every node', () => {
    const live =
      "CREATE TABLE sift.rows_local\n(\n    `file_id` String\n)\nENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sift/rows_local', '{replica}')\nORDER BY file_id";
    expect(stagedTableDefinition(live, 'sift', 'sift__restore_1a2b', ' ON CLUSTER `c`')).toBe(
      "CREATE TABLE `sift__restore_1a2b`.`rows_local` ON CLUSTER `c`\n(\n    `file_id` String\n)\nENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sift__restore_1a2b/rows_local', '{replica}')\nORDER BY file_id",
    );
  });

  it('keeps a Distributed twin reading the live tables, and a plain table as it is', () => {
    const distributed =
      'CREATE TABLE sift.rows\n(\n    `file_id` String\n)\nENGINE = Distributed(`c`, `sift`, rows_local, cityHash64(file_id))';
    expect(stagedTableDefinition(distributed, 'sift', 'st', '')).toBe(
      'CREATE TABLE `st`.`rows`\n(\n    `file_id` String\n)\nENGINE = Distributed(`c`, `sift`, rows_local, cityHash64(file_id))',
    );
    const plain = 'CREATE TABLE sift.files (`id` String) ENGINE = MergeTree ORDER BY id';
    expect(stagedTableDefinition(plain, 'sift', 'st', '')).toBe(
      'CREATE TABLE `st`.`files` (`id` String) ENGINE = MergeTree ORDER BY id',
    );
  });

  it('refuses a statement of another database', () => {
    expect(() =>
      stagedTableDefinition('CREATE TABLE other.t (a String) ENGINE = Log', 'sift', 'st', ''),
    ).toThrow(/Not a CREATE TABLE of sift/);
  });
});
