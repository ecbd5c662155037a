/**
 * Storage limits: an account past its quota, and a disk that is full, are told so with 507 and a
 * message a person can act on; nothing of the refused upload is kept, and uploads work again once
 * there is room. The full disk is a real one: a 1 MB tmpfs mounted over the originals' directory
 * (the tests run as root here, as CI does).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSift } from '@sift/api';
import type { FileRecord } from '@sift/shared/contracts';
import { ApiClient, startTestSift } from './support/sift.ts';

const csv = (rows: number, width = 60) =>
  new TextEncoder().encode(
    `Name,Notes\n${Array.from({ length: rows }, (_, i) => `P${i},${'x'.repeat(width)}`).join('\n')}\n`,
  );

describe('per-account quota', () => {
  const QUOTA = 64 * 1024;
  let sift: RunningSift;
  let user: ApiClient;
  beforeAll(async () => {
    sift = await startTestSift({ accountQuotaBytes: QUOTA });
    user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Quinn', 'Quota');
  });
  afterAll(async () => {
    await sift?.close();
  });

  it('refuses an upload past the quota with 507, keeping nothing, and takes it once room is made', async () => {
    const first = csv(500); // ~32 KB
    const [kept] = await user.upload([{ name: 'first.csv', bytes: first }]);
    expect((await user.waitForIngest(kept!.id)).status).toBe('PROCESSED');
    const blobs = () => readdirSync(path.join(sift.config.dataDir, 'blobs')).length;
    const before = blobs();

    const second = csv(600); // ~39 KB: past the ~32 KB left
    const res = await user.postUpload([{ name: 'second.csv', bytes: second }]);
    expect(res.status).toBe(507);
    const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;
    expect(await res.json()).toEqual({
      error: `This upload needs ${kb(second.length)}, but your account has ${kb(QUOTA - first.length)} of its 64 KB storage left. Delete files you no longer need, or ask an administrator for more space.`,
      code: 'QUOTA_EXCEEDED',
    });
    expect(blobs()).toBe(before);
    expect((await user.json<FileRecord[]>('/file/files')).map((f) => f.originalFilename)).toEqual([
      'first.csv',
    ]);

    expect((await user.fetch(`/file/files/${kept!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await user.postUpload([{ name: 'second.csv', bytes: second }])).status).toBe(201);
  });
});

describe('a full disk', () => {
  let sift: RunningSift;
  let user: ApiClient;
  let blobDir: string;
  beforeAll(async () => {
    sift = await startTestSift();
    user = await ApiClient.onboarded(sift.url, 'admin@example.com', 'Dee', 'Full');
    blobDir = path.join(sift.config.dataDir, 'blobs');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'sift-full-disk', blobDir]);
  });
  afterAll(async () => {
    await sift?.close();
    execFileSync('umount', [blobDir]);
  });

  it('answers 507 when an upload does not fit, leaves no part of it, and goes on', async () => {
    const res = await user.postUpload([{ name: 'big.csv', bytes: csv(40_000) }]); // ~2.5 MB into 1 MB
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({
      error:
        'The server has run out of storage space, so nothing was saved. Please try again later, and tell your administrator.',
      code: 'DISK_FULL',
    });
    expect(readdirSync(blobDir)).toEqual([]);
    expect(await user.json<FileRecord[]>('/file/files')).toEqual([]);

    const [small] = await user.upload([{ name: 'small.csv', bytes: csv(10) }]);
    expect((await user.waitForIngest(small!.id)).status).toBe('PROCESSED');
  });
});
