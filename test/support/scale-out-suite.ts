/**
 * The scale-out scenarios, run as separate processes: two API processes and two stand-alone ingest
 * workers, each with a DATA_DIR of its own (nothing can hide on a shared disk), sharing one
 * ClickHouse server, one S3-compatible bucket and Redis, which the caller provides (the test-only
 * stand-ins here, real containers where a Docker engine exists). One API signs in and the other
 * accepts its token; uploads through either are ingested by the workers and tracked to COMPLETED;
 * search, export, download, delete and reindex work across APIs; a worker killed mid-file leaves
 * the file to the other, which loads exactly its rows; the four processes started together applied
 * each migration once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MetadataElsewhereError, openStorage, physicalColumnName, rowGenerations } from '@sift/clickhouse';
import { exportKey, originalKey, S3Store, type S3Options } from '@sift/object-store';
import type {
  ExportHistoryEntry,
  FileRecord,
  PeopleSearchResponse,
  PersonPageResponse,
  SearchResponse,
  SystemStats,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import { INGEST_QUEUE } from '@sift/shared/jobs';
import { fixture } from './fixtures.ts';
import { ApiClient, freePort, waitFor } from './sift.ts';
import { MIGRATIONS } from './migrations.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const id = randomUUID().replaceAll('-', '');
const QUEUE_PREFIX = `sift-scale-${id}`;
const DATABASE = `scale_${id}`;

interface Service {
  name: string;
  child: ChildProcess;
  dataDir: string;
  exited: Promise<unknown>;
  /** Where a worker answers its metrics and health (METRICS_PORT), e.g. `http://127.0.0.1:PORT`. */
  metricsOrigin?: string;
}
const services: Service[] = [];
let backing: Backing;
let bucket: S3Store;
let apiA: ApiClient;
let apiB: ApiClient;

/** Starts `entry` (a TypeScript entry point) with `env` and a DATA_DIR of its own; resolves once it prints `ready`. */
async function startService(name: string, entry: string, env: Record<string, string>, ready: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `sift-${name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const service: Service = { name, child, dataDir, exited: new Promise((r) => child.once('exit', r)) };
  services.push(service);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code})`)));
  });
  return service;
}

function sharedEnv(): Record<string, string> {
  const o = backing.s3;
  return {
    CLICKHOUSE_URL: backing.clickhouse.url,
    CLICKHOUSE_USER: backing.clickhouse.user,
    CLICKHOUSE_PASSWORD: backing.clickhouse.password,
    CLICKHOUSE_DATABASE: DATABASE,
    REDIS_URL: backing.redisUrl,
    QUEUE_PREFIX,
    INGEST_LOCK_MS: '3000',
    LOG_LEVEL: 'error',
    // A stop's deadline short enough for a test to pass it (SIGTERM mid-load).
    SHUTDOWN_TIMEOUT_MS: '1000',
    S3_BUCKET: o.bucket,
    S3_ENDPOINT: o.endpoint!,
    S3_ACCESS_KEY_ID: o.accessKeyId!,
    S3_SECRET_ACCESS_KEY: o.secretAccessKey!,
    PARSE_IDLE_TIMEOUT_MS: '60000',
    ...backing.env,
  };
}

async function startWorker(name: string): Promise<Service> {
  const port = await freePort();
  const worker = await startService(
    name,
    'ingest-worker/src/main.ts',
    { ...sharedEnv(), METRICS_PORT: String(port) },
    'Sift ingest worker running',
  );
  worker.metricsOrigin = `http://127.0.0.1:${port}`;
  return worker;
}

/** The services the processes share, started by the suite's caller. */
export interface Backing {
  clickhouse: { url: string; user: string; password: string };
  /**
   * On a ClickHouse cluster: one node's HTTP URL a shard, in shard order (the suite then checks
   * where rows live), and the environment that lays Sift out on the cluster.
   */
  shards?: string[];
  /** Every node's HTTP URL, replicas included (default `shards`). */
  nodes?: string[];
  env?: Record<string, string>;
  /** On a replicated cluster: takes one replica of a shard down, and brings it back. */
  replica?: { stop(): Promise<void>; start(): Promise<void> };
  /** On a cluster: takes the last shard's server (not the metadata's home) down, and brings it back. */
  shard?: { stop(): Promise<void>; start(): Promise<void> };
  s3: S3Options;
  redisUrl: string;
  stop(): Promise<void>;
}

/**
 * Defines the scale-out tests in the calling file, on the services `start` provides. With
 * `cluster`, `start` must give the cluster's `shards` and the tests also check where rows live;
 * with `snapshots`, its ClickHouse must have a backup disk (CLICKHOUSE_BACKUP_DISK in `env`);
 * with `replicaLoss`, `start` must give a `replica` to take down during an ingest; with
 * `shardLoss`, a `shard`.
 */
export function scaleOutSuite(
  start: () => Promise<Backing>,
  options: { cluster?: boolean; snapshots?: boolean; replicaLoss?: boolean; shardLoss?: boolean } = {},
): void {
  beforeAll(async () => {
    backing = await start();
    bucket = new S3Store(backing.s3);
    const [portA, portB] = [await freePort(), await freePort()];
    const urlA = `http://localhost:${portA}`;
    const api = (port: number, extra: Record<string, string>) => ({
      ...sharedEnv(),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      RUN_INGEST_WORKER: 'false',
      ...extra,
    });
    // All four at once: they race for the migrations.
    await Promise.all([
      startService('api-a', 'api/src/main.ts', api(portA, {}), 'Sift is running at'),
      // B trusts A's development sign-in as its identity provider.
      startService(
        'api-b',
        'api/src/main.ts',
        api(portB, { OIDC_ISSUER: `${urlA}/idp` }),
        'Sift is running at',
      ),
      startWorker('worker-1'),
      startWorker('worker-2'),
    ]);
    apiA = await ApiClient.onboarded(urlA, 'admin@example.com', 'Scale', 'Out');
    apiB = new ApiClient(`http://localhost:${portB}`, apiA.token);
  }, 120_000);

  afterAll(async () => {
    for (const s of services) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await s.exited;
      rmSync(s.dataDir, { recursive: true, force: true });
    }
    await backing?.stop();
  });

  async function bytesOf(stream: Readable | null): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Runs `sql` on shard `i` (0-based); resolves with its rows, tab-separated. */
  const onShard = (i: number, sql: string) => onNode(backing.shards![i]!, sql);

  /** Runs `sql` on the node at `url`; resolves with its rows, tab-separated. */
  async function onNode(url: string, sql: string): Promise<string[][]> {
    const { user, password } = backing.clickhouse;
    const res = await fetch(`${url}/`, {
      method: 'POST',
      body: sql,
      headers: { 'x-clickhouse-user': user, 'x-clickhouse-key': password },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(text);
    return text
      ? text
          .trimEnd()
          .split('\n')
          .map((line) => line.split('\t'))
      : [];
  }

  /** Rows stored on each shard, by file id: one Map a shard, in shard order. */
  async function rowsByShard(): Promise<Map<string, number>[]> {
    return Promise.all(
      backing.shards!.map(async (_, i) => {
        const rows = await onShard(i, `SELECT file_id, count() FROM ${DATABASE}.rows_local GROUP BY file_id`);
        return new Map(rows.map(([file, n]) => [file!, Number(n)]));
      }),
    );
  }

  /**
   * Rows the shards hold of the account's GENERAL files (the ones a search reads), under either of
   * a file's row ids (a reindex loads them under the other: rowGenerations).
   */
  async function generalRowsStored(shards: Map<string, number>[]): Promise<number> {
    const general = (await apiA.json<FileRecord[]>('/file/files')).filter((f) => f.fileType === 'GENERAL');
    return general.reduce(
      (sum, f) =>
        sum +
        shards.reduce(
          (n, files) => n + rowGenerations(f.id).reduce((m, id) => m + (files.get(id) ?? 0), 0),
          0,
        ),
      0,
    );
  }

  /** The shard (0-based) the Distributed table sends a file's rows to: cityHash64(file_id) modulo the shards. */
  async function shardOf(fileId: string): Promise<number> {
    const [[n]] = (await onShard(0, `SELECT cityHash64('${fileId}') % ${backing.shards!.length}`)) as [
      [string],
    ];
    return Number(n);
  }

  const people = (n: number, tag: string) =>
    new TextEncoder().encode(
      `Name,City,Notes\n${Array.from({ length: n }, (_, i) => `${tag} ${i},City ${i % 13},Note ${i}`).join('\n')}\n`,
    );

  /** The ingest queue the suite's processes share (close it after use). */
  const ingestQueue = () =>
    new Queue(INGEST_QUEUE, { connection: { url: backing.redisUrl }, prefix: QUEUE_PREFIX });

  /** The pid of the process that took `job` last (its `processedBy`: `host:pid`). */
  const pidOf = (job: { processedBy?: string | undefined }) => Number(job.processedBy!.split(':').pop());

  let fromA: FileRecord;
  let fromB: FileRecord;
  const csvBytes = people(3000, 'Alpha');
  const xlsBytes = readFileSync(fixture('wos-savedrecs-emails.xls'));

  it('applied each migration once, though four processes started together', async () => {
    const { url, user, password } = backing.clickhouse;
    const query = `SELECT name, count() FROM ${DATABASE}.schema_migrations GROUP BY name ORDER BY name FORMAT JSONCompact`;
    const rs = await fetch(`${url}/?query=${encodeURIComponent(query)}`, {
      headers: { 'x-clickhouse-user': user, 'x-clickhouse-key': password },
      signal: AbortSignal.timeout(10_000),
    });
    const rows = ((await rs.json()) as { data: [string, string][] }).data;
    expect(rows.map(([name]) => name)).toEqual(MIGRATIONS);
    expect(rows.every(([, times]) => Number(times) === 1)).toBe(true);
  });

  it('ingests uploads through either API, keeps the originals byte for byte, and tracks them to COMPLETED', async () => {
    fromA = (await apiA.upload([{ name: 'alpha.csv', bytes: csvBytes }]))[0]!;
    fromB = (await apiB.upload([{ name: 'savedrecs.xls', bytes: xlsBytes }]))[0]!;
    // Each API answers for the file the other accepted.
    expect(await apiB.waitForIngest(fromA.id)).toMatchObject({ status: 'PROCESSED', totalRows: 3000 });
    expect((await apiA.waitForIngest(fromB.id)).status).toBe('PROCESSED');

    expect(
      (await bytesOf(await bucket.read(originalKey(fromA.filename)))).equals(Buffer.from(csvBytes)),
    ).toBe(true);
    expect((await bytesOf(await bucket.read(originalKey(fromB.filename)))).equals(xlsBytes)).toBe(true);

    const ids = (await apiA.json<{ id: string }[]>('/upload-tracking/sessions')).map((session) => session.id);
    expect(ids).toHaveLength(2);
    const sessions = await waitFor(
      () =>
        Promise.all(
          ids.map((sid) => apiB.json<UploadSessionSummary>(`/upload-tracking/sessions/${sid}/summary`)),
        ),
      (all) => all.every((s) => s.files.every((f) => f.status === 'COMPLETED')),
      { what: 'both upload sessions to complete' },
    );
    // The xls has author columns: its AUTHOR file joined its session.
    expect(sessions.flatMap((s) => s.files.map((f) => f.fileType)).sort()).toEqual([
      'AUTHOR',
      'GENERAL',
      'GENERAL',
    ]);
  });

  if (options.cluster) {
    it('keeps each file on the shard its id hashes to, reads every shard, and adds new columns on every shard (schema changes sent to each node)', async () => {
      // Files until both shards hold some (each upload's shard is known from its id).
      let shards = await rowsByShard();
      for (let tries = 0; shards.some((files) => files.size === 0) && tries < 16; tries++) {
        const [f] = await apiA.upload([{ name: `spread-${tries}.csv`, bytes: people(50, `Spread${tries}`) }]);
        await apiA.waitForIngest(f!.id);
        shards = await rowsByShard();
      }
      expect(shards.every((files) => files.size > 0)).toBe(true);
      for (const [i, files] of shards.entries()) {
        for (const fileId of files.keys()) {
          expect(await shardOf(fileId)).toBe(i);
          // Whole on its shard: no other shard holds any of it.
          expect(shards.filter((other) => other.has(fileId))).toHaveLength(1);
        }
      }
      expect(shards.flatMap((files) => [...files.entries()]).find(([f]) => f === fromA.id)?.[1]).toBe(3000);
      // A search (over the GENERAL files) reads every shard.
      expect((await apiB.json<SearchResponse>('/file/search', { size: 1 })).totalRecords).toBe(
        await generalRowsStored(shards),
      );

      // The administrators' totals count every shard's rows and every node's parts (merges held
      // still meanwhile).
      const nodes = backing.nodes ?? backing.shards!;
      const merges = (verb: string) => Promise.all(nodes.map((url) => onNode(url, `SYSTEM ${verb} MERGES`)));
      await merges('STOP');
      try {
        const stats = await apiA.json<SystemStats>('/admin/system/stats');
        expect(stats.rows).toBe(shards.flatMap((files) => [...files.values()]).reduce((a, b) => a + b, 0));
        const disk = await Promise.all(
          nodes.map(async (url) => {
            const [[bytes]] = (await onNode(
              url,
              `SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '${DATABASE}' AND active`,
            )) as [[string]];
            return Number(bytes);
          }),
        );
        expect(stats.storage.clickhouseBytes).toBe(disk.reduce((a, b) => a + b, 0));
      } finally {
        await merges('START');
      }

      // The header `Notes` made a column of its own, on both tables of every shard.
      const notes = physicalColumnName('Notes');
      for (const i of backing.shards!.keys()) {
        const tables = await onShard(
          i,
          `SELECT table FROM system.columns WHERE database = '${DATABASE}' AND name = '${notes}' ORDER BY table`,
        );
        expect(tables.flat()).toEqual(['rows', 'rows_local']);
      }
    });
  }

  it("keeps the account's people, answered the same by either API", async () => {
    const viaA = await apiA.json<PeopleSearchResponse>('/file/people/search', { size: 100 });
    expect(viaA.totalPeople).toBeGreaterThan(100);
    expect(await apiB.json<PeopleSearchResponse>('/file/people/search', { size: 100 })).toEqual(viaA);
    const first = viaA.people[0]!;
    const page = await apiB.json<PersonPageResponse>(`/file/people/${first.id}`);
    expect(page.entries).toHaveLength(first.rows);
    expect(page.entries.every((e) => e.fileName === 'savedrecs.xls')).toBe(true);
  });

  if (options.cluster)
    it('refuses to start a process pointed at another node than the one keeping unreplicated metadata', async () => {
      const env = backing.env ?? {};
      if (env.CLICKHOUSE_REPLICATED !== 'false') return; // replicated: every node keeps the metadata
      const nodeUrls = env.CLICKHOUSE_NODE_URLS!.split(',');
      const other = nodeUrls.find((url) => url !== backing.clickhouse.url)!;
      const dataDir = mkdtempSync(path.join(tmpdir(), 'sift-elsewhere-'));
      try {
        const opening = openStorage({
          url: other,
          user: backing.clickhouse.user,
          password: backing.clickhouse.password,
          database: DATABASE,
          dataDir,
          cluster: { name: env.CLICKHOUSE_CLUSTER!, replicated: false, nodeUrls },
        });
        await expect(opening).rejects.toThrow(MetadataElsewhereError);
        await expect(opening).rejects.toThrow(
          `kept on one node of this cluster (CLICKHOUSE_REPLICATED=false): ${backing.clickhouse.url}.`,
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      // The processes pointed at the home go on: an upload through either API is read.
      const [again] = await apiB.upload([{ name: 'home.csv', bytes: people(10, 'Home') }]);
      expect((await apiA.waitForIngest(again!.id)).status).toBe('PROCESSED');
    });

  it('has each worker answer liveness, readiness and its metrics on its metrics port', async () => {
    const get = (origin: string, path: string) =>
      fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) });
    let ingested = 0;
    for (const worker of services.filter((s) => s.metricsOrigin)) {
      const origin = worker.metricsOrigin!;
      expect(await (await get(origin, '/health/live')).json()).toEqual({ status: 'live' });
      const ready = await get(origin, '/health/ready');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        clickhouse: true,
        redis: true,
        objectStore: true,
      });
      const text = await (await get(origin, '/metrics')).text();
      ingested += Number(/^sift_rows_ingested_total (\d+)$/m.exec(text)?.[1] ?? 'NaN');
    }
    // The first uploads (3,000 CSV rows and the legacy xls's records) went through them.
    expect(ingested).toBeGreaterThan(3000);
  });

  it('searches, exports and downloads across APIs', async () => {
    const found = await apiB.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'Alpha 2999' } });
    expect(found.data.map((r) => r.Name)).toEqual(['Alpha 2999']);

    const res = await apiA.sendJson('/file/export', { searchCriteria: { City: 'City 5' }, format: 'CSV' });
    const streamed = Buffer.from(await res.arrayBuffer());
    const [entry] = await apiB.json<ExportHistoryEntry[]>('/file/exports');
    expect(entry!.rowCount).toBeGreaterThan(200);
    expect(await bucket.size(exportKey(`${entry!.id}.csv`))).toBe(streamed.length);
    const download = await apiB.fetch(`/file/exports/${entry!.id}/download`);
    expect(Buffer.from(await download.arrayBuffer()).equals(streamed)).toBe(true);
  });

  it('shows a record exported twice once, whichever API took and whichever node holds each copy', async () => {
    const copy = (i: number) => new TextEncoder().encode(`Title,DOI\nTwice ${i},10.3000/TWICE\n`);
    const copies: FileRecord[] = [];
    const shards = new Set<number>();
    // On a cluster, until the copies are on both shards (each file's shard follows from its id).
    for (let i = 0; i < 12 && (copies.length < 2 || (options.cluster && shards.size < 2)); i++) {
      const api = i % 2 ? apiB : apiA;
      const [uploaded] = await api.upload([{ name: `twice-${i}.csv`, bytes: copy(i) }]);
      copies.push(await api.waitForIngest(uploaded!.id));
      if (options.cluster) shards.add(await shardOf(uploaded!.id));
    }
    if (options.cluster) expect(shards.size).toBe(2);
    const search = (body: object) =>
      apiB.json<SearchResponse>('/file/search', { searchCriteria: { Title: 'Twice' }, ...body });
    // The copies are listed just after each file is searchable.
    const once = await waitFor(
      () => search({}),
      (r) => r.totalRecords === 1,
      { what: 'the copies to be listed' },
    );
    expect(once.data.map((r) => r.Title)).toEqual([`Twice ${copies.length - 1}`]);
    expect(once.copiesLeftOut).toBe(copies.length - 1);
    expect((await search({ everyCopy: true })).totalRecords).toBe(copies.length);
    const res = await apiA.sendJson('/file/export', { searchCriteria: { Title: 'Twice' }, format: 'CSV' });
    expect((await res.text()).trim().split(/\r?\n/)).toHaveLength(2);
    for (const f of copies)
      expect((await apiA.fetch(`/file/files/${f.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('deletes through one API what the other accepted, and reindexes from the bucket', async () => {
    expect((await apiB.fetch(`/file/files/${fromA.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await bucket.size(originalKey(fromA.filename))).toBeNull();
    const gone = await apiA.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'Alpha' } });
    expect(gone.totalRecords).toBe(0);

    const before = await apiA.json<SearchResponse>('/file/search', { size: 1 });
    // A confirmation from one API is spent on the other (they share Redis).
    const confirmed = await apiB.confirmed('clear-clickhouse');
    expect((await apiA.fetch('/admin/clear-clickhouse', { method: 'DELETE', ...confirmed })).status).toBe(
      200,
    );
    expect((await apiB.fetch('/admin/reindex-clickhouse', { method: 'POST' })).status).toBe(200);
    // Files stay PROCESSED while they wait their turn: the Reindex session says when all are read.
    await apiA.waitForReindex(180_000);
    await apiA.waitForIngest(fromB.id);
    await waitFor(
      () => apiA.json<SearchResponse>('/file/search', { size: 1 }),
      (r) => r.totalRecords === before.totalRecords,
      { what: 'the reindexed rows' },
    );
    if (options.cluster) {
      // Nothing of the deleted file on any shard, and every reindexed row on exactly one.
      const shards = await rowsByShard();
      expect(shards.some((files) => rowGenerations(fromA.id).some((id) => files.has(id)))).toBe(false);
      expect(await generalRowsStored(shards)).toBe(before.totalRecords);
    }
  });

  if (options.snapshots) {
    it('takes a snapshot through one API and restores it through the other, every shard back as it was', async () => {
      const view = async () => ({
        files: (await apiA.json<FileRecord[]>('/file/files'))
          .map((f) => [f.id, f.status, f.totalRows])
          .sort(),
        total: (await apiA.json<SearchResponse>('/file/search', { size: 1 })).totalRecords,
        originals: (await bucket.list('blobs/')).sort(),
        shards: options.cluster ? await rowsByShard() : null,
      });
      const before = await view();
      const created = await apiA.fetch('/admin/restore/snapshots', { method: 'POST' });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };

      expect(
        (
          await apiB.fetch('/admin/mass-delete-all-files', {
            method: 'DELETE',
            ...(await apiB.confirmed('mass-delete-all-files')),
          })
        ).status,
      ).toBe(200);
      // A header new since the snapshot: its column goes away with the restore.
      const [late] = await apiA.upload([
        { name: 'late.csv', bytes: new TextEncoder().encode('Arrived Late\nyes\n') },
      ]);
      expect((await apiA.waitForIngest(late!.id)).status).toBe('PROCESSED');

      const restored = await apiB.sendJson(
        '/admin/restore/execute',
        { snapshotId: id },
        await apiA.confirmed('restore', id),
      );
      expect(restored.status).toBe(200);
      expect(await view()).toEqual(before);
      // The workers still know no stale column: the same header again is ingested.
      const [again] = await apiB.upload([
        { name: 'again.csv', bytes: new TextEncoder().encode('Arrived Late\nagain\n') },
      ]);
      expect((await apiB.waitForIngest(again!.id)).status).toBe('PROCESSED');
    });
  }

  if (options.replicaLoss) {
    it('loses no row and doubles none when a replica goes down during an ingest', async () => {
      const rows = 200_000;
      const [big] = await apiA.upload([{ name: 'replica-loss.csv', bytes: people(rows, 'Lost') }]);
      await untilLoading(big!.id);
      await backing.replica!.stop();
      try {
        expect(await apiB.waitForIngest(big!.id, 300_000)).toMatchObject({
          status: 'PROCESSED',
          totalRows: rows,
        });
        const found = await apiA.json<SearchResponse>('/file/search', {
          searchCriteria: { Name: 'Lost' },
          size: 1,
        });
        expect(found.totalRecords).toBe(rows);
      } finally {
        await backing.replica!.start();
      }
      // Back, the replica catches up: the same rows, once.
      const shards = await waitFor(
        () => rowsByShard(),
        (all) => all.some((files) => files.get(big!.id) === rows),
        { what: 'the rows on their shard', timeoutMs: 120_000 },
      );
      expect(shards.filter((files) => files.has(big!.id))).toHaveLength(1);
    });
  }

  if (options.shardLoss) {
    it('goes on with a shard down mid-ingest (start-up, ingest, search, delete), losing nothing once it is back', async () => {
      const lastShard = backing.shards!.length - 1;
      // `Outage Note` only once the shard is down: a column no node has yet.
      const table = (rows: number, tag: string, n: number) =>
        new TextEncoder().encode(
          `Name,${tag} Note\n${Array.from({ length: rows }, (_, i) => `${tag} ${n}-${i},note ${i}`).join('\n')}\n`,
        );
      /** Uploads files of `rows` rows until some land on the last shard and some on the others. */
      const spread = async (tag: string, rows: number) => {
        const files: { file: FileRecord; shard: number }[] = [];
        for (let n = 0; n < 40; n++) {
          const [file] = await apiA.upload([{ name: `${tag}-${n}.csv`, bytes: table(rows, tag, n) }]);
          files.push({ file: file!, shard: await shardOf(file!.id) });
          const last = files.filter((f) => f.shard === lastShard).length;
          if (files.length >= 4 && last > 0 && last < files.length) return files;
        }
        throw new Error('40 files on one shard');
      };
      // Before: a file on the shard that goes down, deleted while it is down.
      const before = await spread('Kept', 10);
      for (const { file } of before) expect((await apiA.waitForIngest(file.id)).status).toBe('PROCESSED');
      const doomed = before.find((f) => f.shard === lastShard)!.file;
      // The shard stops while a big file loads (on either shard: its load goes on, or waits).
      const [midway] = await apiA.upload([{ name: 'midway.csv', bytes: people(200_000, 'Midway') }]);
      await untilLoading(midway!.id);
      await backing.shard!.stop();
      let during: { file: FileRecord; shard: number }[] = [];
      try {
        // A process starts while a node is down, sending the nodes nothing: every migration was
        // applied, the fold function is there (no schema statement waits for the node away).
        await startWorker('worker-3');
        const [[logs]] = (await onShard(
          0,
          `SELECT count() FROM system.tables WHERE database = '${DATABASE}' AND name = 'node_catch_up'`,
        )) as [[string]];
        const waiting =
          logs === '1'
            ? await onShard(
                0,
                `SELECT statement FROM ${DATABASE}.node_catch_up WHERE statement LIKE 'CREATE%'`,
              )
            : [];
        expect(waiting).toEqual([]);
        // Uploads with a column no node has (ensureColumns while a node is away).
        during = await spread('Outage', 50);
        const up = during.filter((f) => f.shard !== lastShard);
        for (const { file } of up) expect((await apiB.waitForIngest(file.id)).status).toBe('PROCESSED');
        // Files of the shard that is down wait for it: neither failed nor lost.
        for (const { file } of during.filter((f) => f.shard === lastShard))
          expect((await apiA.json<FileRecord>(`/file/files/${file.id}`)).status).toBe('PROCESSING');
        // Searches go on over the shards that are up.
        const found = await apiB.json<SearchResponse>('/file/search', {
          searchCriteria: { Name: 'Outage' },
          size: 1,
        });
        expect(found.totalRecords).toBe(up.length * 50);
        // And say that rows are missing.
        expect(found.message).toMatch(/cannot be reached/);
        // A file of the shard that is down is deleted at once.
        expect((await apiA.fetch(`/file/files/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
      } finally {
        await backing.shard!.start();
      }
      // Back: the files that waited are loaded, each row once, on its own shard.
      expect(await apiA.waitForIngest(midway!.id, 180_000)).toMatchObject({
        status: 'PROCESSED',
        totalRows: 200_000,
      });
      expect(await storedRows(midway!.id)).toEqual([200_000, 200_000]);
      for (const { file } of during)
        expect(await apiA.waitForIngest(file.id, 120_000)).toMatchObject({
          status: 'PROCESSED',
          totalRows: 50,
        });
      for (const { file } of during) expect(await storedRows(file.id)).toEqual([50, 50]);
      const shards = await waitFor(
        () => rowsByShard(),
        // The delete it missed has reached it.
        (all) => !rowGenerations(doomed.id).some((id) => all[lastShard]!.has(id)),
        { what: 'the deleted file to leave the shard that was down', timeoutMs: 60_000 },
      );
      for (const { file, shard } of during) {
        expect(shards[shard]!.get(file.id)).toBe(50);
        expect(shards.filter((files) => files.has(file.id))).toHaveLength(1);
      }
      // The column added while it was away is there too.
      const column = physicalColumnName('Outage Note');
      const [[n]] = (await onShard(
        lastShard,
        `SELECT count() FROM system.columns WHERE database = '${DATABASE}' AND table = 'rows_local' AND name = '${column}'`,
      )) as [[string]];
      expect(n).toBe('1');
      // Every row is found, and the message goes once the API looks at the shards again (at
      // most SHARDS_LOOK_MS after its last look, which may have been taken while it was down).
      const found = await waitFor(
        () =>
          apiB.json<SearchResponse>('/file/search', {
            searchCriteria: { 'Outage Note': 'note' },
            size: 1,
          }),
        (answer) => answer.message === null,
        { what: 'the search to stop saying rows are missing', timeoutMs: 30_000 },
      );
      expect(found.totalRecords).toBe(during.length * 50);
    });
  }

  /** Resolves once file `id`'s ingest is loading its rows (its job at stage 2). */
  async function untilLoading(id: string): Promise<void> {
    const queue = ingestQueue();
    try {
      await waitFor(
        () => queue.getJob(id),
        (job) => Number((job?.progress as { stage?: number } | undefined)?.stage) === 2,
        { intervalMs: 50, what: `file ${id} to be loading` },
      );
    } finally {
      await queue.close();
    }
  }

  /** The service (a worker) whose process has taken file `id`, once its rows are loading. */
  async function loadingWorker(queue: Queue, id: string): Promise<Service> {
    const { job } = await waitFor(
      async () => ({ job: await queue.getJob(id) }),
      ({ job }) => Boolean(job?.processedBy && Number((job.progress as { stage?: number }).stage) === 2),
      { intervalMs: 50, what: 'a worker to be loading the big file' },
    );
    const pid = pidOf(job!);
    const worker = services.find((s) => s.child.pid === pid)!;
    expect(worker.name).toMatch(/^worker-/);
    return worker;
  }

  /** How many rows file `id` holds, and how many distinct row numbers. */
  async function storedRows(id: string): Promise<[number, number]> {
    const [[n, distinct]] = (await onNode(
      backing.clickhouse.url,
      `SELECT count(), uniqExact(row_number) FROM ${DATABASE}.rows WHERE file_id = '${id}'`,
    )) as [[string, string]];
    return [Number(n), Number(distinct)];
  }

  it('hands a file back when its worker is stopped past the deadline, and the next one loads it exactly once', async () => {
    // Big enough to be loading still when the deadline passes.
    const rows = 1_000_000;
    const [big] = await apiA.upload([{ name: 'stopped.csv', bytes: people(rows, 'Stopped') }]);
    const queue = ingestQueue();
    try {
      const stopped = await loadingWorker(queue, big!.id);
      stopped.child.kill('SIGTERM');
      // Past SHUTDOWN_TIMEOUT_MS the ingest is aborted and the job handed back: the process ends
      // on its own, without an error.
      expect(await stopped.exited).toBe(0);
      // Handed back at once: waiting, or already another worker's, not left to its lock's expiry.
      const back = (await queue.getJob(big!.id))!;
      const state = await back.getState();
      expect(
        // (`prioritized`: waiting among jobs with a priority.)
        state === 'waiting' || state === 'prioritized' || pidOf(back) !== stopped.child.pid,
        `${state}, by ${back.processedBy}`,
      ).toBe(true);
      const done = await apiB.waitForIngest(big!.id, 180_000);
      expect(done).toMatchObject({ status: 'PROCESSED', totalRows: rows });
      // Each row once: the stopped INSERT landed nothing after the next worker cleared the file.
      expect(await storedRows(big!.id)).toEqual([rows, rows]);
      const job = await queue.getJob(big!.id);
      expect(pidOf(job!)).not.toBe(stopped.child.pid);
      // Two workers again for what follows.
      await startWorker('worker-3');
    } finally {
      await queue.close();
    }
  });

  it('leaves a file whose worker was killed mid-load to the other worker, with exactly its rows', async () => {
    const rows = 150_000;
    const [big] = await apiA.upload([{ name: 'big.csv', bytes: people(rows, 'Big') }]);
    const queue = ingestQueue();
    try {
      const victim = await loadingWorker(queue, big!.id);
      const pid = victim.child.pid;
      victim.child.kill('SIGKILL');
      await victim.exited;

      const done = await apiB.waitForIngest(big!.id, 180_000);
      expect(done).toMatchObject({ status: 'PROCESSED', totalRows: rows });
      const all = await apiA.json<SearchResponse>('/file/search', {
        searchCriteria: { Name: 'Big' },
        size: 1,
      });
      expect(all.totalRecords).toBe(rows);
      const survivor = await queue.getJob(big!.id);
      expect(pidOf(survivor!)).not.toBe(pid);
    } finally {
      await queue.close();
    }
  });
}
