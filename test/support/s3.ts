/**
 * A real S3-compatible server for tests (s3rver, in this process), on a free loopback port with a
 * data directory of its own and one bucket; and the S3 options Sift needs to use it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Options } from '@sift/object-store';
import { freePort } from './ports.ts';

export interface TestS3 {
  /** Options for Sift's S3Store (S3_* variables) against this server. */
  options: S3Options;
  /** The requests the server has received so far, as `METHOD /path?query`, in order. */
  requests(): string[];
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
  const seen: string[] = [];
  (server as unknown as { httpServer: Server }).httpServer.on('request', (req: IncomingMessage) => {
    seen.push(`${req.method} ${req.url}`);
  });
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
    requests: () => [...seen],
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Creates these buckets on the S3-compatible server `options` names, signed in with its credentials. */
export async function createBuckets(options: S3Options, buckets: string[]): Promise<void> {
  const admin = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId!, secretAccessKey: options.secretAccessKey! },
  });
  try {
    for (const Bucket of buckets) await admin.send(new CreateBucketCommand({ Bucket }));
  } finally {
    admin.destroy();
  }
}
