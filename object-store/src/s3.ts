import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkKey, missingObject, type ByteRange, type ObjectStore } from './object-store.ts';

/** Where an S3-compatible store is and how to sign in to it (S3_* variables). */
export interface S3Options {
  /** e.g. `http://minio:9000`; unset → AWS's own endpoint for the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Key prefix inside the bucket, e.g. `sift/` (empty for the bucket's root). */
  prefix: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers want. */
  forcePathStyle: boolean;
}

/** Bytes of one part of a multipart upload. */
const PART_BYTES = 8 * 2 ** 20;

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, …), shared by every process. Uploads are
 * streamed in parts from a local file; reads stream. Checksums are computed only where the service
 * requires them: some S3-compatible servers store the SDK's `aws-chunked` framing otherwise, and the
 * object comes back longer than it went in.
 */
export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3Options) {
    this.#client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
    this.#bucket = options.bucket;
    this.#prefix = options.prefix;
  }

  #key(key: string): string {
    return this.#prefix + checkKey(key);
  }

  localPath(): null {
    return null;
  }

  async putFile(key: string, filePath: string): Promise<void> {
    await this.putStream(key, createReadStream(filePath));
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: this.#key(key), Body: body },
      partSize: PART_BYTES,
      queueSize: 2,
    });
    // The SDK stops at the first failed part without erroring the body: it is destroyed here, so
    // whatever feeds it is not left waiting on a body no one reads.
    await upload.done().catch((e: unknown) => {
      body.destroy();
      throw e;
    });
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: this.#key(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return res.Body as Readable;
    } catch (e) {
      if (e instanceof NoSuchKey || e instanceof NotFound) return null;
      throw e;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (e) {
      if (e instanceof NotFound || e instanceof NoSuchKey) return null;
      throw e;
    }
  }

  async remove(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const objects = keys.slice(i, i + 1000).map((key) => ({ Key: this.#key(key) }));
      if (objects.length)
        await this.#client.send(
          new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: objects } }),
        );
    }
  }

  async usage(prefix: string): Promise<{ objects: number; bytes: number }> {
    let objects = 0;
    let bytes = 0;
    for await (const o of this.#listed(prefix)) {
      objects++;
      bytes += o.size;
    }
    return { objects, bytes };
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const o of this.#listed(prefix)) keys.push(o.key);
    return keys;
  }

  async copy(from: string, to: string): Promise<void> {
    if ((await this.size(from)) === null) throw missingObject(from);
    await this.#client.send(
      new CopyObjectCommand({
        Bucket: this.#bucket,
        Key: this.#key(to),
        CopySource: `${this.#bucket}/${this.#key(from).split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  async putBytes(key: string, bytes: Uint8Array): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: this.#key(key), Body: bytes }));
  }

  /** The objects under `prefix`: their keys (without the store's prefix) and sizes, page by page. */
  async *#listed(prefix: string): AsyncGenerator<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: this.#prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key.slice(this.#prefix.length), size: o.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async withLocalFile<T>(
    key: string,
    scratchDir: string,
    work: (filePath: string) => Promise<T>,
  ): Promise<T> {
    const body = await this.read(key);
    if (!body) throw missingObject(key);
    await mkdir(scratchDir, { recursive: true });
    const file = path.join(scratchDir, `object-${randomUUID()}${path.extname(key)}`);
    try {
      await pipeline(body, createWriteStream(file));
      return await work(file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.#client.destroy();
  }
}
