/**
 * A directory on an FTP, FTPS or SFTP server that files are imported from (spec section 7,
 * `POST /api/file/process-ftp`): listed and downloaded through well-kept clients, basic-ftp for FTP
 * and FTPS (explicit TLS) and ssh2-sftp-client for SFTP. One connection per import, closed after.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client as FtpClient, FileType } from 'basic-ftp';
import SftpClient from 'ssh2-sftp-client';

/** Where to import from: the IMPORT_LOCATION_* variables. */
export interface ImportLocationConfig {
  /**
   * `sftp://user@host[:port]/directory`, `ftp://user@host[:port]/directory` or `ftps://…` (FTP
   * with explicit TLS). No user: `anonymous`. A password in the URL is refused (see loadConfig).
   */
  url: string;
  password?: string | undefined;
  /** SFTP: an OpenSSH or PEM private key's text, instead of or beside the password. */
  privateKey?: string | undefined;
  /**
   * SFTP: the server's host key fingerprint as `ssh-keygen -lf` prints it (`SHA256:<base64>`);
   * another key fails the import. Unset: any host key is accepted.
   */
  hostKeyFingerprint?: string | undefined;
}

/** A file the location offers: its name in the directory, size in bytes, last change (ISO 8601). */
export interface RemoteFile {
  name: string;
  sizeBytes: number;
  modifiedAt: string | null;
}

/** An open connection to the location's directory. */
export interface RemoteDirectory {
  /** The directory's regular files, by name. */
  list(): Promise<RemoteFile[]>;
  /**
   * Downloads `name` (a name list() gave) to the local path `to`; resolves its size in bytes.
   * Errors: RemoteFileTooLargeError when it has more than `maxBytes` (what was written is left
   * for the caller to remove), ImportLocationError when the transfer fails or stalls.
   */
  download(name: string, to: string, maxBytes: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The location could not be reached, refused the credentials or the host key, or failed a
 * transfer. The message names the location without credentials and is safe to show.
 */
export class ImportLocationError extends Error {}

/** A file the location offers has more bytes than it may; the download stopped there. */
export class RemoteFileTooLargeError extends Error {}

/** The location as people may see it: scheme, host, port and directory, never credentials. */
export function describeLocation(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${decodeURIComponent(u.pathname) || '/'}`;
}

/** `SHA256:<base64, unpadded>` of a raw SSH host key, as ssh-keygen prints it. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** Calls `onStall` once when `progress` has not been called for `ms`, until `stop`. */
class Stall {
  readonly #timer: NodeJS.Timeout;
  constructor(ms: number, onStall: () => void) {
    this.#timer = setTimeout(onStall, ms);
  }
  progress(): void {
    this.#timer.refresh();
  }
  stop(): void {
    clearTimeout(this.#timer);
  }
}

function stalledError(where: string, name: string, ms: number): ImportLocationError {
  return new ImportLocationError(
    `The import location ${where} stopped sending ${name} for ${Math.round(ms / 1000)} s; the import was abandoned. Try again later.`,
  );
}

/**
 * A pass-through stream counting the bytes of `name`: past `maxBytes` it fails, and `tooLarge`
 * holds the RemoteFileTooLargeError.
 */
function countBytes(maxBytes: number, name: string) {
  let bytes = 0;
  const counted = {
    tooLarge: null as RemoteFileTooLargeError | null,
    bytes: () => bytes,
    stream: new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes <= maxBytes) return done(null, chunk);
        counted.tooLarge = new RemoteFileTooLargeError(`${name} has more than ${maxBytes} bytes`);
        done(counted.tooLarge);
      },
    }),
  };
  return counted;
}

function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // ssh2-sftp-client prefixes its method name ("connect: ..."); the cause is what helps.
  return message.replace(/^\w+: /, '');
}

/**
 * Connects to the location and opens its directory, within `timeoutMs` for the connection, for
 * each reply after and for each wait for a downloaded file's next bytes. Errors:
 * ImportLocationError saying what failed (unreachable, authentication, host key, no such
 * directory).
 */
export async function openRemoteDirectory(
  config: ImportLocationConfig,
  timeoutMs = 15_000,
): Promise<RemoteDirectory> {
  const url = new URL(config.url);
  const where = describeLocation(config.url);
  const dir = decodeURIComponent(url.pathname) || '/';
  const user = decodeURIComponent(url.username) || 'anonymous';
  const fail = (e: unknown, what: string) =>
    new ImportLocationError(`Could not ${what} the import location ${where}: ${reason(e)}`);
  if (url.protocol === 'sftp:') {
    const sftp = new SftpClient('sift-import');
    const expected = config.hostKeyFingerprint;
    let wrongKey: string | null = null;
    try {
      await sftp.connect({
        host: url.hostname,
        port: Number(url.port || 22),
        username: user,
        password: config.password,
        privateKey: config.privateKey,
        readyTimeout: timeoutMs,
        ...(expected
          ? {
              hostVerifier: (key: Buffer) => {
                const seen = hostKeyFingerprint(key);
                if (seen !== expected) wrongKey = seen;
                return seen === expected;
              },
            }
          : {}),
      });
    } catch (e) {
      await sftp.end().catch(() => {});
      if (wrongKey)
        throw new ImportLocationError(
          `The import location ${where} answered with host key ${wrongKey}, not the one configured (IMPORT_LOCATION_HOST_KEY). Ask an administrator to check the server.`,
        );
      throw fail(e, 'connect to');
    }
    const remote = (name: string) => path.posix.join(dir, name);
    let stalled = false;
    return {
      async list() {
        try {
          const entries = await sftp.list(dir);
          return entries
            .filter((e) => e.type === '-')
            .map((e) => ({
              name: e.name,
              sizeBytes: e.size,
              modifiedAt: e.modifyTime ? new Date(e.modifyTime).toISOString() : null,
            }));
        } catch (e) {
          throw fail(e, 'list');
        }
      },
      async download(name, to, maxBytes) {
        // fastGet reads the size the server gives when it opens the file, in parallel requests
        // (a stream reads one request at a time, far slower over a distant link). So the size is
        // checked first, and a transfer that stops answering cuts the connection.
        const stall = new Stall(timeoutMs, () => {
          stalled = true;
          // The SSH connection under the client (not in its types): cut, so the request fails now.
          (sftp as unknown as { client: { destroy(): void } }).client.destroy();
        });
        try {
          const size = (await sftp.stat(remote(name))).size;
          if (size > maxBytes) throw new RemoteFileTooLargeError(`${name} has ${size} bytes`);
          stall.progress();
          await sftp.fastGet(remote(name), to, { step: () => stall.progress() });
        } catch (e) {
          if (e instanceof RemoteFileTooLargeError) throw e;
          throw stalled ? stalledError(where, name, timeoutMs) : fail(e, `download ${name} from`);
        } finally {
          stall.stop();
        }
        const written = (await stat(to)).size;
        if (written > maxBytes) throw new RemoteFileTooLargeError(`${name} has ${written} bytes`);
        return written;
      },
      async close() {
        // A connection cut for a stall has closed already; ending it again would wait forever.
        if (!stalled) await sftp.end().catch(() => {});
      },
    };
  }
  if (url.protocol === 'ftp:' || url.protocol === 'ftps:') {
    const ftp = new FtpClient(timeoutMs);
    // basic-ftp closes its connection when a transfer fails (one stopped for its size included):
    // the next command connects again.
    const connect = async () => {
      try {
        await ftp.access({
          host: url.hostname,
          port: Number(url.port || 21),
          user,
          password: config.password ?? (user === 'anonymous' ? 'anonymous@' : ''),
          secure: url.protocol === 'ftps:',
        });
        await ftp.cd(dir);
      } catch (e) {
        ftp.close();
        throw fail(e, 'connect to');
      }
    };
    await connect();
    return {
      async list() {
        try {
          const entries = await ftp.list();
          return entries
            .filter((e) => e.type === FileType.File)
            .map((e) => ({
              name: e.name,
              sizeBytes: e.size,
              modifiedAt: e.modifiedAt ? e.modifiedAt.toISOString() : null,
            }));
        } catch (e) {
          throw fail(e, 'list');
        }
      },
      async download(name, to, maxBytes) {
        // An FTP transfer ends when the server closes it, whatever size it listed: counted as it
        // comes. basic-ftp itself fails a transfer that stops answering.
        if (ftp.closed) await connect();
        const counted = countBytes(maxBytes, name);
        // Both settle before the connection takes its next command.
        const outcomes = await Promise.allSettled([
          ftp.downloadTo(counted.stream, name),
          pipeline(counted.stream, createWriteStream(to)),
        ]);
        if (counted.tooLarge) throw counted.tooLarge;
        for (const outcome of outcomes)
          if (outcome.status === 'rejected') throw fail(outcome.reason, `download ${name} from`);
        return counted.bytes();
      },
      async close() {
        ftp.close();
      },
    };
  }
  throw new ImportLocationError(
    `The import location must be an sftp://, ftp:// or ftps:// URL, not ${url.protocol}`,
  );
}
