/**
 * A file of ~1,600 columns (most past the column guard, kept in the overflow map) exports whole:
 * the export names each column in its query, which passed the engine's 256 KB limit on a query's
 * size ("Max query size exceeded") and cut the download off.
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { FileRecord } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

const COLUMNS = 1_600;
let sift: RunningSift;
let user: ApiClient;
let file: FileRecord;
const headers = Array.from(
  { length: COLUMNS },
  (_, i) => `Indicator ${String(i).padStart(4, '0')}: share of households with a long descriptive name`,
);

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Wide', 'Exporter');
  const rows = Array.from({ length: 3 }, (_, r) => headers.map((_, i) => `${r}.${i}`).join(','));
  const csv = [headers.map((h) => `"${h}"`).join(','), ...rows].join('\n');
  const [uploaded] = await user.upload([{ name: 'wide.csv', bytes: new TextEncoder().encode(csv) }]);
  file = await user.waitForIngest(uploaded!.id);
});
afterAll(async () => {
  await sift?.close();
});

it.each(['CSV', 'XLSX'] as const)(
  'exports every column and row of a %s file past the query size',
  async (format) => {
    expect(file).toMatchObject({ status: 'PROCESSED', totalRows: 3, totalColumns: COLUMNS });
    const res = await user.sendJson('/file/export', { fileIds: [file.id], format });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (format === 'CSV') {
      const lines = bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines).toHaveLength(4);
      const last = lines[3]!.split(',').map((c) => c.replace(/^"|"$/g, ''));
      expect(last).toHaveLength(COLUMNS);
      expect(last.at(-1)).toBe(`2.${COLUMNS - 1}`);
    } else {
      const zip = await JSZip.loadAsync(bytes);
      const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
      expect(sheet.match(/<row /g)).toHaveLength(4);
      expect(sheet).toContain(`<t>2.${COLUMNS - 1}</t>`);
    }
  },
);

it('searches the wide file and answers every column', async () => {
  const res = await user.sendJson('/file/search', { fileIds: [file.id], size: 10 });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Record<string, string>[] };
  expect(body.data).toHaveLength(3);
  expect(body.data[2]![headers.at(-1)!]).toBe(`2.${COLUMNS - 1}`);
});
