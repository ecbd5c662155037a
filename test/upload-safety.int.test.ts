/**
 * Upload safety: every refusal has the right status and a message a person can act on, nothing of a
 * refused file is kept, and the other files of the same request go on alone.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { FileRecord, UploadResponse } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';
import { addRows, workbookZip, zipBytes } from './support/workbooks.ts';

const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
let sift: RunningSift;
let user: ApiClient;
let blobDir: string;

beforeAll(async () => {
  // A small reader heap, so a workbook that exhausts it fits in the upload limit.
  sift = await startTestSift({
    maxUploadBytes: MAX_UPLOAD_BYTES,
    readIsolation: { maxHeapMb: 32, idleTimeoutMs: 60_000 },
  });
  blobDir = path.join(sift.config.dataDir, 'blobs');
  user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Safe', 'Uploader');
});
afterAll(async () => {
  await sift?.close();
});

async function uploadOne(name: string, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return user.fetch('/file/upload', { method: 'POST', body: form });
}

function blobCount(): number {
  return readdirSync(blobDir).length;
}

/**
 * Uploads `hostile` beside a good CSV in one request and waits for both: the good file is read
 * (a hostile file fails alone). Resolves with the hostile file's record once its ingest ended.
 */
async function besideGoodFile(hostile: { name: string; bytes: Uint8Array }): Promise<FileRecord> {
  const uploaded = await user.upload([
    hostile,
    { name: 'good.csv', bytes: new TextEncoder().encode('Name\nAda\n') },
  ]);
  const ended = await user.waitForIngest(uploaded[0]!.id);
  expect((await user.waitForIngest(uploaded[1]!.id)).status).toBe('PROCESSED');
  return ended;
}

describe('refused uploads', () => {
  it('refuses a file over the size limit with 413', async () => {
    const res = await uploadOne('big.csv', new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(0x61));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'File too large. Maximum size is 4MB.',
      code: 'FILE_TOO_LARGE',
    });
  });

  it('refuses content that does not match the extension with 415 and keeps nothing', async () => {
    const before = blobCount();
    const res = await uploadOne('report.xlsx', new TextEncoder().encode('Name,Email\nA,a@x.org\n'));
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: string }).error).toBe(
      '"report.xlsx" is not an Excel workbook: its content is not in the .xlsx format. Open it in Excel and save it again as .xlsx.',
    );
    expect(blobCount()).toBe(before);
    expect(await user.json<FileRecord[]>('/file/files')).toEqual([]);
  });

  it('refuses a zip bomb with 422 before parsing it', async () => {
    const zip = await workbookZip();
    zip.file('xl/media/padding.bin', new Uint8Array(64 * 1024 * 1024)); // 64 MB of zeros, ~64 KB deflated
    const res = await uploadOne('bomb.xlsx', await zipBytes(zip));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^"bomb\.xlsx" was refused: it would expand to 64 MB, too much for its size \(a possible zip bomb\)\.$/,
    );
  });

  it('refuses a workbook with too many parts with 422', async () => {
    const zip = await workbookZip();
    for (let i = 0; i < 10_001; i++) zip.file(`xl/extra/p${i}.txt`, '');
    const res = await uploadOne('parts.xlsx', await zipBytes(zip));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(/has 100\d\d parts, more than the 10000/);
  });

  it('refuses XML with a DOCTYPE with 422', async () => {
    const zip = await workbookZip();
    const xml = await zip.file('xl/workbook.xml')!.async('string');
    zip.file(
      'xl/workbook.xml',
      xml.replace('?>', '?><!DOCTYPE workbook [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'),
    );
    const res = await uploadOne('entities.xlsx', await zipBytes(zip));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toBe(
      '"entities.xlsx" was refused: its part xl/workbook.xml contains a DOCTYPE declaration, which spreadsheets do not need and Sift does not accept for safety.',
    );
  });

  it('refuses markup posing as .xls (the SheetJS ReDoS input, CVE-2024-22363) before any parser sees it', async () => {
    // SheetJS's ReDoS lived in the regular expressions of its XML/HTML readers; a legacy .xls must
    // be a real OLE compound file, so markup with pathological tags never reaches them.
    const attrs = ' a="1"'.repeat(50_000);
    const markup = `<?xml version="1.0"?><Workbook><Worksheet${attrs}><Table><Row><Cell${'\t'.repeat(50_000)}>`;
    for (const content of [markup, `<html><table${attrs}><tr><td>x</td></tr></table></html>`]) {
      const before = blobCount();
      const res = await uploadOne('savedrecs.xls', new TextEncoder().encode(content));
      expect(res.status).toBe(415);
      expect(((await res.json()) as { error: string }).error).toBe(
        '"savedrecs.xls" is not an Excel workbook: its content is not in the .xls format. Open it in Excel and save it again as .xlsx.',
      );
      expect(blobCount()).toBe(before);
    }
  });

  it('refuses more than 25 files in one request with a clear message', async () => {
    const form = new FormData();
    for (let i = 0; i < 26; i++) form.append('files', new Blob(['A\n1\n']), `f${i}.csv`);
    const res = await user.fetch('/file/upload-multiple', { method: 'POST', body: form });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe(
      'Too many files in one upload: at most 25 files per request. Please upload the rest separately.',
    );
  });
});

describe('accepted uploads', () => {
  it('stores a file under a generated name whatever path its name carries', async () => {
    const res = await uploadOne('../../../../tmp/evil.csv', new TextEncoder().encode('Name\nMallory\n'));
    expect(res.status).toBe(201);
    const { file } = (await res.json()) as UploadResponse;
    expect(file.filename).toMatch(/^[0-9a-f-]{36}\.csv$/);
    expect(existsSync(path.join(blobDir, file.filename))).toBe(true);
    expect(file.originalFilename).not.toContain('/');
    expect((await user.waitForIngest(file.id)).status).toBe('PROCESSED');
  });

  it('fails an unsafe file alone in a batch; the others complete', async () => {
    const zip = await workbookZip();
    zip.file('xl/media/padding.bin', new Uint8Array(32 * 1024 * 1024));
    const uploaded = await user.upload([
      { name: 'good.csv', bytes: new TextEncoder().encode('Name\nAda\n') },
      { name: 'bomb.xlsx', bytes: await zipBytes(zip) },
    ]);
    expect(uploaded.map((f) => f.status)).toEqual(['PROCESSING', 'FAILED']);
    expect(uploaded[1]!.errorMessage).toMatch(/possible zip bomb/);
    expect((await user.waitForIngest(uploaded[0]!.id)).status).toBe('PROCESSED');
    expect(existsSync(path.join(blobDir, uploaded[1]!.filename))).toBe(false);
  });

  it('fails a workbook with a cell past column XFD beside a good file, and goes on answering', async () => {
    const zip = await workbookZip();
    await addRows(zip, '<row r="2"><c r="ZZZZZZZ2" t="inlineStr"><is><t>x</t></is></c></row>');
    const hostile = await besideGoodFile({ name: 'hostile.xlsx', bytes: await zipBytes(zip) });
    expect(hostile.status).toBe('FAILED');
    expect(hostile.errorMessage).toBe(
      `"hostile.xlsx" was refused: its sheet "Sheet1" has a cell ZZZZZZZ2 past Excel's last column XFD (16,384 columns).`,
    );
    expect((await fetch(`${sift.url}/api/health`)).status).toBe(200);
  });

  it('fails a workbook whose rows span far more cells than they hold beside a good file', async () => {
    // 1.4 MB of rows with a cell in column XFD cost 792 MB and 230 s to read as arrays up to it;
    // here column CCC (2,109), so that this test's 32 MB reading heap is not what stops it.
    const zip = await workbookZip();
    const far = Array.from(
      { length: 600 },
      (_, i) => `<row r="${i + 2}"><c r="CCC${i + 2}" t="inlineStr"><is><t>far</t></is></c></row>`,
    ).join('');
    await addRows(zip, far);
    const spread = await besideGoodFile({ name: 'spread.xlsx', bytes: await zipBytes(zip) });
    expect(spread.status).toBe('FAILED');
    expect(spread.errorMessage).toMatch(
      /^"spread\.xlsx" was refused: its sheet "Sheet1" holds \d+ cells spread over [\d,]+ places in its rows \(cells far apart, such as one in column CCC of row \d+\): delete the empty columns between them and upload it again\.$/,
    );
  });

  it('fails a workbook whose reading exhausts its heap beside a good file, and goes on answering', async () => {
    const zip = await workbookZip();
    // Shared strings are held in memory while the sheet is read: these need far more than 32 MB.
    const strings = Array.from({ length: 1_500_000 }, (_, i) => `<si><t>author ${i}</t></si>`);
    zip.file('xl/sharedStrings.xml', `<sst count="${strings.length}">${strings.join('')}</sst>`);
    const heavy = await zipBytes(zip);
    expect(heavy.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const failed = await besideGoodFile({ name: 'heavy.xlsx', bytes: heavy });
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toBe(
      '"heavy.xlsx" could not be read: reading it needs more memory than Sift allows one file (32 MB). Check that it opens in Excel, save it again (or split it into smaller files) and re-upload it.',
    );
    expect((await fetch(`${sift.url}/api/health`)).status).toBe(200);
  });
});

describe('invalid UTF-8 past the first 64 KB', () => {
  it('is stored as U+FFFD, so deleting and loading files (a mutation of the shared part) still work', async () => {
    // Valid UTF-8 for the first 64 KB (read as UTF-8, loaded by the engine as bytes), then a name
    // saved in Latin-1: before, those bytes were stored as they were and every later mutation of
    // their part failed on the text skip index, for every account.
    const head = `Name,City\n${'Ada,Köln\n'.repeat(8_000)}`;
    const bytes = Buffer.concat([
      Buffer.from(head, 'utf8'),
      Buffer.from('M'),
      Buffer.from([0xfc]),
      Buffer.from('ller,Bonn\n'),
    ]);
    const [poison, other] = await user.upload([
      { name: 'late-latin1.csv', bytes },
      { name: 'other.csv', bytes: new TextEncoder().encode('Name,City\nGrace,Arlington\n') },
    ]);
    for (const f of [poison!, other!]) expect((await user.waitForIngest(f.id)).status).toBe('PROCESSED');
    const rows = await user.json<{ data: Record<string, string>[] }>('/file/search', {
      fileIds: [poison!.id],
      searchCriteria: { City: 'Bonn' },
    });
    expect(rows.data.map((r) => r['Name'])).toEqual(['M\uFFFDller']);
    // Deleting is a mutation of the part both files' rows are in.
    expect((await user.fetch(`/file/files/${other!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await user.fetch(`/file/files/${poison!.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('a CSV cell of megabytes', () => {
  it('is refused at once with the cap, before any parser meets it, and the file fails alone', async () => {
    const huge = `Name,Notes\nAda,"${'x'.repeat(3_000_000)}"\nGrace,short\n`;
    const [file, other] = await user.upload([
      { name: 'huge-cell.csv', bytes: new TextEncoder().encode(huge) },
      { name: 'fine.csv', bytes: new TextEncoder().encode('Name\nAlan\n') },
    ]);
    const failed = await user.waitForIngest(file!.id);
    expect(failed).toMatchObject({ status: 'FAILED' });
    expect(failed.errorMessage).toBe(
      '"huge-cell.csv" was refused: a cell holds more than 262,144 characters.',
    );
    expect((await user.waitForIngest(other!.id)).status).toBe('PROCESSED');
  });
});
