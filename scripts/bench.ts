/**
 * `npm run bench` (alias `npm run bench:ingest`): ingest, search and export throughput on generated
 * files (~10 columns, ~300 bytes a row), in-process against embedded chDB (no HTTP, no Redis), so the
 * numbers are those of the pipeline itself.
 *
 *   npm run bench                                   # 1,000,000 CSV rows, 200,000 xlsx rows
 *   BENCH_ROWS=200000 BENCH_XLSX_ROWS=50000 npm run bench
 *
 * Prints: the engine's own rate loading the same CSV into a table of the same layout (the baseline),
 * Sift's CSV ingest with the engine loader and with the JavaScript loader and their ratios to the
 * baseline, author-file derivation, xlsx ingest, peak RSS of each, search latency (median of 5) and
 * export scan rows/s.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  ident,
  newUploadRecord,
  openStorage,
  TEXT_INDEX_TYPE,
  textIndexName,
  type FileRow,
  type Storage,
} from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { COUNTRIES, HEADERS, RARE_EVERY, RARE_SURNAME, SURNAMES, WORDS } from './bench-data.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const XLSX_ROWS = Number(process.env.BENCH_XLSX_ROWS ?? 200_000);
const AUTHOR_ROWS = Number(process.env.BENCH_AUTHOR_ROWS ?? 100_000);
let seed = 42;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const pick = (a: string[]) => a[rand(a.length)]!;

/** A generated record of ~300 bytes as CSV. */
function row(i: number): string[] {
  const s1 = pick(SURNAMES);
  const s2 = pick(SURNAMES);
  return [
    `${s1}, A; ${s2}, B`,
    `${i % RARE_EVERY === 0 ? RARE_SURNAME : s1}, Anna; ${s2}, Ben`,
    `${pick(WORDS)} ${pick(WORDS)} of ${pick(WORDS)} and ${pick(WORDS)} in ${pick(WORDS)} systems ${i}`,
    `Journal of ${pick(WORDS)} and ${pick(WORDS)} research`,
    String(1990 + rand(35)),
    `10.${1000 + rand(9000)}/x${i}`,
    `Department of ${pick(WORDS)}, University of ${pick(WORDS)}, ${pick(WORDS)} campus`,
    pick(COUNTRIES),
    `${s1.toLowerCase()}${i}@uni.edu; ${s2.toLowerCase()}.b@inst.org`,
    `${pick(WORDS)}; ${pick(WORDS)}; ${pick(WORDS)}; ${pick(WORDS)}`,
  ];
}

/** Header rows: with WoS author columns (an AUTHOR file is derived) or without. */
const PLAIN_HEADERS = HEADERS.map((h) =>
  h === 'Authors' ? 'Contributors' : h === 'Email Addresses' ? 'Contacts' : h,
);

async function writeCsv(file: string, headers: string[], rows: number): Promise<void> {
  const out = createWriteStream(file);
  const q = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  out.write(`${headers.map(q).join(',')}\n`);
  for (let i = 0; i < rows; i++) if (!out.write(`${row(i).map(q).join(',')}\n`)) await once(out, 'drain');
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
  ws.addRow(PLAIN_HEADERS).commit();
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
  csvLoader: 'engine' | 'javascript' = 'engine',
): Promise<{ file: FileRow; ms: number; rss: number }> {
  const id = randomUUID();
  await storage.files.save(
    newUploadRecord({
      id,
      ownerId,
      originalFilename: name,
      filename: name,
      sizeBytes: statSync(path.join(dir, name)).size,
    }),
  );
  peakRss = process.memoryUsage().rss;
  const t = performance.now();
  const written = await ingestFile(
    { storage, blobDir: dir, csvLoader },
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

/**
 * The engine alone: the same CSV into a table of the same layout (the columns Sift created for the
 * file, with the same text skip indexes) with INSERT … SELECT FROM file().
 */
async function baseline(
  storage: Storage,
  csv: string,
  file: FileRow,
): Promise<{ ms: number; indexes: number }> {
  const db = ident(storage.database);
  const indexed = await storage.rows.indexedColumns();
  const cols = PLAIN_HEADERS.map((h) => file.columnMap[h]!);
  const indexes = cols.filter((c) => indexed.has(c));
  await storage.client.command({
    query: `CREATE TABLE ${db}.baseline (file_id String, sheet LowCardinality(String), row_number UInt32,
            ${cols.map((c) => `${ident(c)} String`).join(', ')}
            ${indexes.map((c) => `, INDEX ${ident(textIndexName(c))} ${ident(c)} TYPE ${TEXT_INDEX_TYPE}`).join('')})
            ENGINE = MergeTree ORDER BY (file_id, sheet, row_number)`,
  });
  const t = performance.now();
  await storage.client.command({
    query: `INSERT INTO ${db}.baseline SELECT 'f', 's', toUInt32(rowNumberInAllBlocks() + 2), *
            FROM file({path:String}, 'CSVWithNames', {structure:String})`,
    query_params: { path: csv, structure: cols.map((c) => `${c} String`).join(', ') },
    // Fields by position: the structure's names are not the CSV's header names.
    clickhouse_settings: { input_format_with_names_use_header: 0 },
  });
  return { ms: performance.now() - t, indexes: indexes.length };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const rate = (rows: number, ms: number) => (rows / ms) * 1000;
const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-'));
const storage = await openStorage({
  user: 'default',
  password: '',
  database: `bench_${Date.now()}`,
  dataDir: dir,
});
const owner = 'bench';
try {
  const plainCsv = path.join(dir, 'plain.csv');
  await writeCsv(plainCsv, PLAIN_HEADERS, ROWS);
  await writeCsv(path.join(dir, 'authors.csv'), HEADERS, AUTHOR_ROWS);
  await writeXlsx(path.join(dir, 'plain.xlsx'));
  const bytesPerRow = statSync(plainCsv).size / ROWS;

  const engine = await ingest(storage, dir, 'plain.csv', owner, 'engine');
  const base = await baseline(storage, plainCsv, engine.file);
  const baseMs = base.ms;
  const js = await ingest(storage, dir, 'plain.csv', owner, 'javascript');
  const authors = await ingest(storage, dir, 'authors.csv', owner, 'engine');
  const xlsx = await ingest(storage, dir, 'plain.xlsx', owner);

  const files = [engine.file];
  const term = { 'Author Full Names': 'kowalski' };
  const count = await median(() => storage.rows.count({ files, criteria: term }));
  const page = await median(() => storage.rows.page({ files, criteria: term }, 0, 20));
  const rare = await median(() =>
    storage.rows.count({ files, criteria: { 'Author Full Names': 'zyskowski' } }),
  );
  let exported = 0;
  const t = performance.now();
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  for await (const batch of storage.rows.scan({ files, criteria: {} })) {
    for (const hit of batch) sink.write(Object.values(hit.cells).join(','));
    exported += batch.length;
  }
  const exportMs = performance.now() - t;
  const baseRate = rate(ROWS, baseMs);
  console.log(
    `\nSift benchmark: ${fmt(ROWS)} CSV rows (~${fmt(bytesPerRow)} bytes each), ${fmt(XLSX_ROWS)} xlsx rows, ` +
      `${fmt(AUTHOR_ROWS)} author records, ${HEADERS.length} columns (chDB, in-process)\n`,
  );
  console.table({
    'engine baseline: CSV file() → table': {
      value: fmt(baseRate),
      unit: 'rows/s',
      note: `${fmt(baseMs)} ms, same columns and ${base.indexes} text skip indexes`,
    },
    'ingest CSV (engine loader)': {
      value: fmt(rate(engine.file.totalRows, engine.ms)),
      unit: 'rows/s',
      note: `${(rate(engine.file.totalRows, engine.ms) / baseRate).toFixed(2)}× baseline, ${fmt(engine.ms)} ms, peak RSS ${fmt(engine.rss / 2 ** 20)} MB`,
    },
    'ingest CSV (JavaScript loader)': {
      value: fmt(rate(js.file.totalRows, js.ms)),
      unit: 'rows/s',
      note: `${(rate(js.file.totalRows, js.ms) / baseRate).toFixed(2)}× baseline, ${fmt(js.ms)} ms, peak RSS ${fmt(js.rss / 2 ** 20)} MB`,
    },
    'ingest CSV with AUTHOR file': {
      value: fmt(rate(authors.file.totalRows, authors.ms)),
      unit: 'rows/s',
      note: `source rows/s incl. ${fmt(AUTHOR_ROWS * 2)} author rows, peak RSS ${fmt(authors.rss / 2 ** 20)} MB`,
    },
    'ingest xlsx': {
      value: fmt(rate(xlsx.file.totalRows, xlsx.ms)),
      unit: 'rows/s',
      note: `${fmt(xlsx.ms)} ms, peak RSS ${fmt(xlsx.rss / 2 ** 20)} MB`,
    },
    'search count, common term': {
      value: count.toFixed(1),
      unit: 'ms',
      note: 'median of 5, text skip index',
    },
    'search first page, common term': { value: page.toFixed(1), unit: 'ms', note: 'median of 5' },
    'search count, rare term': { value: rare.toFixed(1), unit: 'ms', note: 'median of 5' },
    'export scan (all rows)': {
      value: fmt(rate(exported, exportMs)),
      unit: 'rows/s',
      note: `${fmt(exported)} rows`,
    },
  });
} finally {
  clearInterval(sampler);
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
