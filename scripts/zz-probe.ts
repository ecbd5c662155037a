import { mkdtempSync, writeFileSync, existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { newUploadRecord, openStorage } from '@sift/clickhouse';
import { ingestFile } from '@sift/ingest-worker';
import { LocalDiskStore } from '@sift/object-store';

const N = Number(process.env.N ?? 300000);
const dir = mkdtempSync(path.join(tmpdir(), 'probe-'));
const S = ['Smith', 'Kowalski', 'Nguyen', 'Garcia', 'Muller', 'Rossi', 'Tanaka', 'Novak'];
let csv = 'Authors,Author Full Names,Article Title,Source Title,Publication Year,DOI,Addresses,Country,Email Addresses,Keywords\n';
for (let i = 0; i < N; i++) {
  const a = S[i % 8]!, b = S[(i * 7 + 3) % 8]!;
  csv += `"${a}, A; ${b}, B","${a}, Anna; ${b}, Ben",Title of thing ${i},Journal of stuff,2001,10.1/x${i},"Dept, Univ",Poland,"${a.toLowerCase()}${i}@uni.edu; ${b.toLowerCase()}.b@inst.org",kw; kw2\n`;
}
writeFileSync(path.join(dir, 'a.csv'), csv);
if (!existsSync(path.join(dir, 'blobs'))) symlinkSync('.', path.join(dir, 'blobs'));
const storage = await openStorage({ user: 'default', password: '', database: 'probe', dataDir: dir });
const db = 'probe';
// Engine baseline: the same file into a table with the same columns and text indexes.
const cols = Array.from({ length: 10 }, (_, i) => `c${i}`);
await storage.client.command({ query: `CREATE TABLE ${db}.base (file_id String, sheet LowCardinality(String), row_number UInt32, ${cols.map((c) => `${c} String`).join(', ')}, ${cols.filter((_, i) => i !== 4 && i !== 5).map((c) => `INDEX t_${c} ${c} TYPE text(tokenizer = splitByNonAlpha)`).join(', ')}) ENGINE = MergeTree ORDER BY (file_id, sheet, row_number)` }).catch((e) => console.log('base table', e.message));
let t = performance.now();
await storage.client.command({ query: `INSERT INTO ${db}.base SELECT 'f', 's', toUInt32(rowNumberInAllBlocks() + 2), * FROM file('${path.join(dir, 'a.csv')}', 'CSVWithNames', '${cols.map((c) => `${c} String`).join(', ')}')`, clickhouse_settings: { input_format_with_names_use_header: 0 } });
const baseMs = performance.now() - t;
const id = randomUUID();
await storage.files.save(newUploadRecord({ id, ownerId: 'o', originalFilename: 'a.csv', filename: 'a.csv', sizeBytes: csv.length }));
const t0 = performance.now();
const stages: Record<string, number> = {};
await ingestFile(
  { storage, originals: new LocalDiskStore(dir), tmpDir: path.join(dir, 'tmp') },
  { fileId: id, ownerId: 'o', storedName: 'a.csv', originalFilename: 'a.csv' },
  (p) => { stages[p.stageDescription] ??= Math.round(performance.now() - t0); },
);
const total = performance.now() - t0;
const searchable = stages['Deriving author rows'] ?? total;
console.log(JSON.stringify({ baseMs: Math.round(baseMs), searchableMs: Math.round(searchable), totalMs: Math.round(total), generalRatio: +(baseMs / searchable).toFixed(2), authorRatio: +(baseMs / total).toFixed(2), stages }));
await storage.close();
