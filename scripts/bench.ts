/**
 * `npm run bench`: ingest, search and export throughput on synthetic author-list data, in-process
 * against embedded chDB (no HTTP, no Redis), so the numbers are those of the pipeline itself.
 *
 *   npm run bench                  # 200,000 rows
 *   BENCH_ROWS=1000000 npm run bench
 *
 * Prints one table: ingest rows/s and peak RSS for CSV and xlsx, search latency (median of 5) for a
 * count and a first page, and CSV export rows/s.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { openStorage, type FileRow, type Storage } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const XLSX_ROWS = Math.min(ROWS, Number(process.env.BENCH_XLSX_ROWS ?? 50_000));
const HEADERS = [
  'Authors',
  'Author Full Names',
  'Article Title',
  'Source Title',
  'Publication Year',
  'DOI',
  'Affiliations',
  'Country',
  'Email Addresses',
  'Keywords',
];
const SURNAMES = [
  'Smith',
  'Müller',
  'García',
  'Kim',
  'Nguyen',
  'Rossi',
  'Novak',
  'Silva',
  'Kowalski',
  'Tanaka',
  'Okafor',
  'Larsen',
];
const WORDS = [
  'neural',
  'graph',
  'protein',
  'climate',
  'market',
  'quantum',
  'policy',
  'soil',
  'ocean',
  'learning',
  'network',
  'health',
];

let seed = 42;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const pick = (a: string[]) => a[rand(a.length)]!;

function row(i: number): string[] {
  const s1 = pick(SURNAMES);
  const s2 = pick(SURNAMES);
  return [
    `${s1}, A; ${s2}, B`,
    `${s1}, Anna; ${s2}, Ben`,
    `${pick(WORDS)} ${pick(WORDS)} of ${pick(WORDS)} ${i}`,
    `Journal of ${pick(WORDS)}`,
    String(1990 + rand(35)),
    `10.${1000 + rand(9000)}/x${i}`,
    `University of ${pick(WORDS)}`,
    pick(['Germany', 'Japan', 'Brazil', 'Nigeria', 'Italy']),
    `${s1.toLowerCase()}${i}@uni.edu`,
    `${pick(WORDS)}; ${pick(WORDS)}`,
  ];
}

async function writeCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  const q = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  out.write(`${HEADERS.join(',')}\n`);
  for (let i = 0; i < ROWS; i++) if (!out.write(`${row(i).map(q).join(',')}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function writeXlsx(file: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(HEADERS).commit();
  for (let i = 0; i < XLSX_ROWS; i++) ws.addRow(row(i)).commit();
  ws.commit();
  await wb.commit();
}

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

async function ingest(
  storage: Storage,
  dir: string,
  name: string,
  ownerId: string,
): Promise<{ file: FileRow; ms: number; rss: number }> {
  const id = randomUUID();
  await storage.files.save({
    id,
    ownerId,
    originalFilename: name,
    filename: name,
    fileType: 'GENERAL',
    status: 'PROCESSING',
    errorMessage: '',
    totalRows: 0,
    totalColumns: 0,
    columnNames: [],
    sheetNames: [],
    columnMap: {},
    sizeBytes: statSync(path.join(dir, name)).size,
    sourceFileId: '',
    uploadDate: new Date().toISOString(),
  });
  peakRss = process.memoryUsage().rss;
  const t = performance.now();
  const written = await ingestFile(
    { storage, blobDir: dir },
    { fileId: id, ownerId, storedName: name, originalFilename: name },
  );
  const ms = performance.now() - t;
  return { file: written.find((f) => f.id === id)!, ms, rss: peakRss };
}

async function median(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-'));
const storage = await openStorage({
  user: 'default',
  password: '',
  database: `bench_${Date.now()}`,
  dataDir: dir,
});
const owner = 'bench';
try {
  await writeCsv(path.join(dir, 'authors.csv'));
  await writeXlsx(path.join(dir, 'authors.xlsx'));
  const csv = await ingest(storage, dir, 'authors.csv', owner);
  const xlsx = await ingest(storage, dir, 'authors.xlsx', owner);
  const files = [csv.file];
  const term = { 'Author Full Names': 'Kowalski, Anna' };
  const count = await median(() => storage.rows.count({ files, criteria: term }));
  const page = await median(() => storage.rows.page({ files, criteria: term }, 0, 20));
  const rare = await median(() =>
    storage.rows.count({ files, criteria: { 'Email Addresses': `${ROWS - 7}@` } }),
  );
  let exported = 0;
  const t = performance.now();
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  for await (const batch of storage.rows.scan({ files, criteria: {} })) {
    for (const hit of batch) sink.write(Object.values(hit.cells).join(','));
    exported += batch.length;
  }
  const exportMs = performance.now() - t;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `\nSift benchmark: ${fmt(ROWS)} CSV rows, ${fmt(XLSX_ROWS)} xlsx rows, ${HEADERS.length} columns (chDB, in-process)\n`,
  );
  console.table({
    'ingest CSV': {
      value: fmt((csv.file.totalRows / csv.ms) * 1000),
      unit: 'rows/s',
      note: `${fmt(csv.ms)} ms, peak RSS ${fmt(csv.rss / 2 ** 20)} MB`,
    },
    'ingest xlsx': {
      value: fmt((xlsx.file.totalRows / xlsx.ms) * 1000),
      unit: 'rows/s',
      note: `${fmt(xlsx.ms)} ms, peak RSS ${fmt(xlsx.rss / 2 ** 20)} MB`,
    },
    'AUTHOR rows derived (CSV)': { value: fmt(ROWS * 2), unit: 'rows', note: 'two authors a record' },
    'search count, common term': { value: count.toFixed(1), unit: 'ms', note: 'median of 5' },
    'search first page, common term': { value: page.toFixed(1), unit: 'ms', note: 'median of 5' },
    'search count, rare term': { value: rare.toFixed(1), unit: 'ms', note: 'median of 5' },
    'export scan (all rows)': {
      value: fmt((exported / exportMs) * 1000),
      unit: 'rows/s',
      note: `${fmt(exported)} rows`,
    },
  });
} finally {
  clearInterval(sampler);
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
