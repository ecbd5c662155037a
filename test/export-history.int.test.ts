/**
 * Export history and saved queries: every export is kept and listed newest first, its
 * download is byte-for-byte what was streamed, delete removes record and file; an export whose data
 * source fails mid-stream is aborted (the client's download fails) and leaves nothing behind.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { ExportHistoryEntry, ExportRequest, FileRecord, SavedQuery } from '@sift/shared/contracts';
import { ident } from '@sift/clickhouse';
import { ApiClient, startTestSift } from './support/sift.ts';

let sift: RunningSift;
let user: ApiClient;
let stranger: ApiClient;
let file: FileRecord;

/** OWASP CSV-injection payloads, and a plain negative number that must stay a number. */
const PAYLOADS = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '\rCR', '-42'];

beforeAll(async () => {
  sift = await startTestSift();
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Ex', 'Porter');
  stranger = await ApiClient.approved(sift, user, 'stranger@example.org', 'Stan', 'Stranger');
  const lines = ['Name,Note', ...PAYLOADS.map((p, i) => `Row ${i},"${p}"`)];
  const [uploaded] = await user.upload([
    { name: 'payloads.csv', bytes: new TextEncoder().encode(lines.join('\n')) },
  ]);
  file = await user.waitForIngest(uploaded!.id);
});
afterAll(async () => {
  await sift?.close();
});

async function exportBytes(body: ExportRequest): Promise<{ bytes: Buffer; disposition: string }> {
  const res = await user.sendJson('/file/export', body);
  expect(res.status).toBe(200);
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    disposition: res.headers.get('content-disposition') ?? '',
  };
}

const exportDir = () => path.join(sift.config.dataDir, 'exports');

describe('export history', () => {
  it('keeps every export: listed newest first, downloaded byte for byte, deleted with its file', async () => {
    const csv = await exportBytes({ fileIds: [file.id], format: 'CSV', customFilename: 'Payloads ünïcode' });
    expect(csv.disposition).toContain("filename*=UTF-8''Payloads%20%C3%BCn%C3%AFcode.csv");
    // Byte-exact: every field quoted, each payload prefixed with ' ; -42 (a plain number) unchanged.
    expect(csv.bytes.toString('utf8')).toBe(
      '\uFEFF"Name","Note"\n' +
        `"Row 0","'=1+1"\n"Row 1","'+SUM(A1)"\n"Row 2","'-2+3"\n"Row 3","'@cmd"\n` +
        `"Row 4","'\tTAB"\n"Row 5","'\rCR"\n"Row 6","-42"\n`,
    );
    const xlsx = await exportBytes({ fileIds: [file.id], format: 'XLSX', columns: ['Note'] });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const cells = wb.worksheets[0]!.getColumn(1).values.slice(1);
    // Exact values, never formulas (inline strings: no formula guard needed, none added); the CR
    // survives (written as a character reference, which XML's line-end normalisation leaves alone).
    expect(cells).toEqual(['Note', ...PAYLOADS]);

    const history = await user.json<ExportHistoryEntry[]>('/file/exports');
    expect(history.map((h) => [h.exportFormat, h.rowCount, h.exportCriteria.columns])).toEqual([
      ['XLSX', 7, 1],
      ['CSV', 7, 2],
    ]);
    expect(history[1]!.exportFilename).toBe('Payloads ünïcode.csv');
    expect(history[0]!.exportCriteria).toMatchObject({ fileIds: [file.id], columnNames: ['Note'] });
    expect(new Date(history[0]!.createdAt).getTime()).toBeGreaterThanOrEqual(
      new Date(history[1]!.createdAt).getTime(),
    );

    for (const [entry, streamed] of [
      [history[0]!, xlsx.bytes],
      [history[1]!, csv.bytes],
    ] as const) {
      const res = await user.fetch(`/file/exports/${entry.id}/download`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(Buffer.from(await res.arrayBuffer()).equals(streamed)).toBe(true);
      // Another account cannot see, download or delete it.
      expect((await stranger.fetch(`/file/exports/${entry.id}/download`)).status).toBe(404);
      expect((await stranger.fetch(`/file/exports/${entry.id}`, { method: 'DELETE' })).status).toBe(404);
    }
    expect(await stranger.json('/file/exports')).toEqual([]);
    expect(readdirSync(exportDir())).toHaveLength(2);

    expect((await user.fetch(`/file/exports/${history[1]!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await user.fetch(`/file/exports/${history[1]!.id}/download`)).status).toBe(404);
    expect((await user.json<ExportHistoryEntry[]>('/file/exports')).map((h) => h.id)).toEqual([
      history[0]!.id,
    ]);
    expect(readdirSync(exportDir())).toEqual([`${history[0]!.id}.xlsx`]);
  });

  let big: FileRecord | undefined;
  it.each(['CSV', 'XLSX'] as const)(
    'aborts the %s download when the data source fails mid-stream, keeping nothing',
    async (format) => {
      const rows = 60_000;
      if (!big) {
        const filler = 'x'.repeat(300);
        const lines = ['Id,Text', ...Array.from({ length: rows }, (_, i) => `${i},${filler}`)];
        const [uploaded] = await user.upload([
          { name: 'big.csv', bytes: new TextEncoder().encode(lines.join('\n')) },
        ]);
        big = await user.waitForIngest(uploaded!.id);
      }
      expect(big.totalRows).toBe(rows);
      const before = await user.json<ExportHistoryEntry[]>('/file/exports');
      const keptBefore = readdirSync(exportDir()).length;

      // With a pre-processing rule the rows pass through JavaScript as they are read (without one,
      // the engine writes the whole file before the first byte is sent).
      const res = await user.sendJson('/file/export', {
        fileIds: [big.id],
        format,
        enablePreprocessing: true,
        preprocessingRules: [{ sourceColumn: 'Text', targetColumn: 'Id', delimiter: '|' }],
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      await reader.read(); // the export is under way and waits for us (backpressure)
      const table = `${ident(sift.storage.database)}.rows`;
      await sift.storage.client.command({ query: `DETACH TABLE ${table}` });
      try {
        let received = 0;
        const drain = async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return received;
            received += value.length;
          }
        };
        await expect(drain()).rejects.toThrow();
      } finally {
        await sift.storage.client.command({ query: `ATTACH TABLE ${table}` });
      }
      expect(await user.json<ExportHistoryEntry[]>('/file/exports')).toEqual(before);
      expect(readdirSync(exportDir())).toHaveLength(keptBefore);
    },
  );
});

describe('saved queries', () => {
  it('saves, lists newest first and deletes a search; others get 404', async () => {
    const bad = await user.sendJson('/file/queries', { searchCriteria: { Name: 'Row' } });
    expect(bad.status).toBe(400);
    const first = await user.json<SavedQuery>('/file/queries', {
      name: 'Rows',
      searchCriteria: { Name: ' Row ' },
    });
    const second = await user.json<SavedQuery>('/file/queries', {
      name: 'Notes in one file',
      searchCriteria: { Note: 'SUM' },
      fileIds: [file.id],
    });
    expect(first).toMatchObject({ name: 'Rows', fileType: 'GENERAL', searchCriteria: { Name: 'Row' } });
    expect((await user.json<SavedQuery[]>('/file/queries')).map((q) => q.id)).toEqual([second.id, first.id]);
    expect((await stranger.fetch(`/file/queries/${first.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await stranger.json('/file/queries')).toEqual([]);
    expect((await user.fetch(`/file/queries/${first.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await user.json<SavedQuery[]>('/file/queries')).map((q) => q.name)).toEqual([
      'Notes in one file',
    ]);
  });
});
