/**
 * Imports from a configured FTP/SFTP location (spec section 7, issue 23), through
 * `GET` / `POST /api/file/process-ftp`, against real servers: OpenSSH's sshd (SFTP, key
 * authentication, host key pinned) and vsftpd (anonymous FTP). Listed files, chosen or all imported
 * into an upload session, ingested and searchable; a corrupt file fails alone, a file over the size
 * limit stays where it is; wrong keys and host keys are clear errors (none configured: test/formats.int.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type {
  FileRecord,
  ImportFromLocationResponse,
  ImportLocationListing,
  SearchResponse,
  UploadSessionSummary,
} from '@sift/shared/contracts';
import { openRemoteDirectory, RemoteFileTooLargeError } from '../api/src/files/remote-directory.ts';
import {
  startTestFtp,
  startTestSftp,
  type TestFileServer,
  type TestSftpServer,
} from './support/file-servers.ts';
import { fixture } from './support/fixtures.ts';
import { ApiClient, startTestSift } from './support/sift.ts';
import { waitFor } from './support/wait.ts';

const MAX_UPLOAD_BYTES = 256 * 1024;
const PEOPLE = 'Name,City\nAda Lovelace,London\nAlan Turing,Wilmslow\n';

let sftp: TestSftpServer;
let ftp: TestFileServer;
const running: RunningSift[] = [];

beforeAll(async () => {
  [sftp, ftp] = await Promise.all([startTestSftp(), startTestFtp()]);
  for (const server of [sftp, ftp]) {
    writeFileSync(path.join(server.dir, 'people.csv'), PEOPLE);
    writeFileSync(path.join(server.dir, 'notes.pdf'), 'not a spreadsheet');
  }
  copyFileSync(fixture('wos-savedrecs-small.xls'), path.join(sftp.dir, 'wos.xls'));
  writeFileSync(path.join(sftp.dir, 'broken.xlsx'), 'this is not a zip archive');
  writeFileSync(path.join(sftp.dir, 'huge.csv'), `Name\n${'x'.repeat(MAX_UPLOAD_BYTES)}\n`);
}, 60_000);

afterAll(async () => {
  for (const sift of running) await sift.close();
  await Promise.all([sftp?.stop(), ftp?.stop()]);
});

async function siftWith(overrides: Parameters<typeof startTestSift>[0]): Promise<ApiClient> {
  const sift = await startTestSift({ maxUploadBytes: MAX_UPLOAD_BYTES, ...overrides });
  running.push(sift);
  return ApiClient.onboarded(sift.url, 'admin@example.com', 'Ivy', 'Importer');
}

const post = (client: ApiClient, body: unknown) =>
  client.sendJson('/file/process-ftp', body, { signal: AbortSignal.timeout(60_000) });

describe('from an SFTP location', () => {
  let client: ApiClient;
  beforeAll(async () => {
    client = await siftWith({
      importLocation: {
        url: sftp.url,
        privateKey: sftp.privateKey,
        hostKeyFingerprint: sftp.hostKeyFingerprint,
      },
    });
  });

  it('lists the Excel and CSV files there, without credentials', async () => {
    const listing = await client.json<ImportLocationListing>('/file/process-ftp');
    expect(listing.location).toBe(sftp.url.replace(/\/\/[^@]+@/, '//'));
    expect(listing.files.map((f) => f.name)).toEqual(['broken.xlsx', 'huge.csv', 'people.csv', 'wos.xls']);
    const people = listing.files.find((f) => f.name === 'people.csv')!;
    expect(people.sizeBytes).toBe(Buffer.byteLength(PEOPLE));
    expect(Date.parse(people.modifiedAt!)).not.toBeNaN();
  });

  it('refuses a name the location does not offer, importing nothing', async () => {
    const before = await client.json<FileRecord[]>('/file/files');
    const res = await post(client, { files: ['people.csv', 'notes.pdf', 'missing.csv'] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      'Not found at the import location (or not an Excel or CSV file): notes.pdf, missing.csv',
    );
    expect(await client.json<FileRecord[]>('/file/files')).toEqual(before);
  });

  it('imports every file into one upload session: ingested, a corrupt one failed alone, a huge one left', async () => {
    const res = await post(client, {});
    expect(res.status).toBe(201);
    const imported = (await res.json()) as ImportFromLocationResponse;
    expect(imported.skipped).toEqual([
      { name: 'huge.csv', reason: 'File too large. Maximum size is 0.25MB.' },
    ]);
    expect(imported.files.map((f) => [f.originalFilename, f.status])).toEqual([
      ['broken.xlsx', 'FAILED'],
      ['people.csv', 'PROCESSING'],
      ['wos.xls', 'PROCESSING'],
    ]);
    expect(imported.files[0]!.errorMessage).toBeTruthy();
    for (const file of imported.files.slice(1)) {
      expect((await client.waitForIngest(file.id)).status).toBe('PROCESSED');
    }
    // The session's tracking (and wos.xls's AUTHOR file) may settle after the files' own status.
    const session = await waitFor(
      () => client.json<UploadSessionSummary>(`/upload-tracking/sessions/${imported.sessionId}/summary`),
      (s) => s.session.isCompleted,
      { what: 'the import session to complete' },
    );
    // wos.xls has authors: its AUTHOR file joins the session.
    expect(session.files.map((f) => `${f.fileName} ${f.fileType} ${f.status}`).sort()).toEqual([
      'broken.xlsx GENERAL FAILED',
      'people.csv GENERAL COMPLETED',
      'wos.xls AUTHOR COMPLETED',
      'wos.xls GENERAL COMPLETED',
    ]);
    const found = await client.json<SearchResponse>('/file/search', { searchCriteria: { Name: 'turing' } });
    expect(found.data.map((r) => r.City)).toEqual(['Wilmslow']);
  });

  it("refuses an import past the account's quota, before downloading (507)", async () => {
    const tight = await siftWith({
      importLocation: {
        url: sftp.url,
        privateKey: sftp.privateKey,
        hostKeyFingerprint: sftp.hostKeyFingerprint,
      },
      accountQuotaBytes: 1024,
    });
    const res = await post(tight, { files: ['people.csv', 'wos.xls'] });
    expect(res.status).toBe(507);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^This upload needs \d+ KB, but your account has 1 KB of its 1 KB storage left\./,
    );
    expect(await tight.json<FileRecord[]>('/file/files')).toEqual([]);
  });

  it('imports only the files named', async () => {
    const res = await post(client, { files: ['people.csv'] });
    expect(res.status).toBe(201);
    const imported = (await res.json()) as ImportFromLocationResponse;
    expect(imported.files.map((f) => f.originalFilename)).toEqual(['people.csv']);
    expect((await client.waitForIngest(imported.files[0]!.id)).totalRows).toBe(2);
  });
});

describe('failures of the location', () => {
  it('says when the key is refused, or the host key is not the one configured (502)', async () => {
    await expect(openRemoteDirectory({ url: sftp.url, privateKey: sftp.strangerKey })).rejects.toThrow(
      /^Could not connect to the import location sftp:\/\/127\.0\.0\.1:\d+\/.*: All configured authentication methods failed$/,
    );
    const wrongHost = await siftWith({
      importLocation: {
        url: sftp.url,
        privateKey: sftp.privateKey,
        hostKeyFingerprint: `SHA256:${'A'.repeat(43)}`,
      },
    });
    const res = await wrongHost.fetch('/file/process-ftp');
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toBe(
      `The import location ${sftp.url.replace(/\/\/[^@]+@/, '//')} answered with host key ${sftp.hostKeyFingerprint}, not the one configured (IMPORT_LOCATION_HOST_KEY). Ask an administrator to check the server.`,
    );
  });

  it('says when nothing answers at the location', async () => {
    const closed = await startTestFtp();
    const url = closed.url;
    await closed.stop();
    await expect(openRemoteDirectory({ url }, 5_000)).rejects.toThrow(
      /^Could not connect to the import location ftp:\/\/127\.0\.0\.1:\d+\/: .*ECONNREFUSED/,
    );
  });
});

describe('downloads', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'sift-location-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('stop past the size a file may have, and the next file still comes', async () => {
    for (const location of [{ url: sftp.url, privateKey: sftp.privateKey }, { url: ftp.url }]) {
      const dir = await openRemoteDirectory(location);
      try {
        await expect(
          dir.download('people.csv', path.join(scratch, randomUUID()), PEOPLE.length - 1),
        ).rejects.toBeInstanceOf(RemoteFileTooLargeError);
        const to = path.join(scratch, randomUUID());
        expect(await dir.download('people.csv', to, PEOPLE.length)).toBe(PEOPLE.length);
        expect(readFileSync(to, 'utf8')).toBe(PEOPLE);
      } finally {
        await dir.close();
      }
    }
  });

  it('give up on an SFTP server that stops answering, saying so', async () => {
    const dir = await openRemoteDirectory({ url: sftp.url, privateKey: sftp.privateKey }, 1_000);
    const resume = sftp.pauseSessions();
    try {
      await expect(dir.download('people.csv', path.join(scratch, randomUUID()), 1024)).rejects.toThrow(
        new RegExp(`^The import location .* stopped sending people\\.csv for 1 s; the import was abandoned`),
      );
    } finally {
      resume();
      await dir.close();
    }
  });
});

describe('from an anonymous FTP location', () => {
  it('lists and imports its files', async () => {
    const client = await siftWith({ importLocation: { url: ftp.url } });
    const listing = await client.json<ImportLocationListing>('/file/process-ftp');
    expect(listing.files.map((f) => [f.name, f.sizeBytes])).toEqual([
      ['people.csv', Buffer.byteLength(PEOPLE)],
    ]);
    const res = await post(client, {});
    expect(res.status).toBe(201);
    const imported = (await res.json()) as ImportFromLocationResponse;
    const done = await client.waitForIngest(imported.files[0]!.id);
    expect(done).toMatchObject({ originalFilename: 'people.csv', status: 'PROCESSED', totalRows: 2 });
  });
});
