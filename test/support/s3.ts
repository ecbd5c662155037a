/**
 * A real S3-compatible server for tests (s3rver, in this process), on a free loopback port with a
 * data directory of its own and one bucket; and the S3 options Sift needs to use it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Options } from '@sift/object-store';
import { freePort } from './ports.ts';

export interface TestS3 {
  /** Options for Sift's S3Store (S3_* variables) against this server. */
  options: S3Options;
  stop(): Promise<void>;
}

/** Starts s3rver with the bucket `bucket` (default `sift`); objects go under `prefix`. */
export async function startTestS3(bucket = 'sift', prefix = ''): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'sift-s3-'));
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  return {
    options: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      prefix,
      // s3rver accepts these fixed credentials (its README's "S3RVER" pair).
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
