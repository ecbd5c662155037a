/**
 * Real file servers for the import-location tests, on free loopback ports with directories of their
 * own: OpenSSH's sshd serving SFTP (key authentication) and vsftpd serving anonymous FTP, both from
 * Debian's packages (openssh-server, vsftpd; `.ci/run` installs them). Each runs as a child process
 * in the foreground and is killed by stop().
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';
import { waitFor } from './wait.ts';

export interface TestFileServer {
  /** The directory served: files written here are offered. */
  dir: string;
  /** The location's URL (no credentials in it). */
  url: string;
  stop(): Promise<void>;
}

export interface TestSftpServer extends TestFileServer {
  /** A private key the server accepts, OpenSSH format. */
  privateKey: string;
  /** Another key, which it does not. */
  strangerKey: string;
  /** The server's host key fingerprint, `SHA256:…` as ssh-keygen prints it. */
  hostKeyFingerprint: string;
  /**
   * Stops (SIGSTOP) the processes serving the connections open now, as a hung server would be:
   * they answer nothing until the returned function continues them (SIGCONT).
   */
  pauseSessions(): () => void;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

/** Starts `command`, waits for it to accept connections on `port`; its stderr is in the failure. */
async function serve(command: string, args: string[], port: number, what: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitFor(
    async () => (exited ? 'exited' : (await accepts(port)) ? 'up' : 'down'),
    (state) => state !== 'down',
    { timeoutMs: 20_000, what: `${what} on port ${port}` },
  ).then((state) => {
    if (state === 'exited') throw new Error(`${what} stopped at start: ${stderr.trim()}`);
  });
  return child;
}

function stopper(child: ChildProcess, root: string) {
  return async () => {
    if (child.exitCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(root, { recursive: true, force: true });
  };
}

/** The pids of `pid`'s children, their children and so on (from Linux's /proc; none once it exited). */
function descendants(pid: number): number[] {
  let listed: string;
  try {
    listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return [];
  }
  const children = listed.split(' ').filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Sends `sig` to `pid`, unless it has exited since it was listed (a connection just closed). */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

function keyPair(file: string): { privateKey: string; publicKey: string } {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'sift-test', '-f', file]);
  return { privateKey: readFileSync(file, 'utf8'), publicKey: readFileSync(`${file}.pub`, 'utf8') };
}

/** OpenSSH's sshd with only its internal SFTP server, for this machine's user, by key. */
export async function startTestSftp(): Promise<TestSftpServer> {
  const root = mkdtempSync(path.join(tmpdir(), 'sift-sftp-'));
  const dir = path.join(root, 'exports');
  mkdirSync(dir);
  keyPair(path.join(root, 'host_key'));
  const client = keyPair(path.join(root, 'client_key'));
  const stranger = keyPair(path.join(root, 'stranger_key'));
  writeFileSync(path.join(root, 'authorized_keys'), client.publicKey);
  const port = await freePort();
  const config = path.join(root, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(root, 'host_key')}`,
      `PidFile ${path.join(root, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(root, 'authorized_keys')}`,
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  // sshd's privilege separation directory.
  mkdirSync('/run/sshd', { recursive: true });
  const child = await serve('/usr/sbin/sshd', ['-D', '-e', '-f', config], port, 'sshd');
  const fingerprint = execFileSync('ssh-keygen', ['-lf', path.join(root, 'host_key.pub')], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  return {
    dir,
    url: `sftp://${encodeURIComponent(userInfo().username)}@127.0.0.1:${port}${dir}`,
    privateKey: client.privateKey,
    strangerKey: stranger.privateKey,
    hostKeyFingerprint: fingerprint,
    pauseSessions() {
      const sessions = descendants(child.pid!);
      if (!sessions.length) throw new Error('sshd serves no connection to pause');
      for (const pid of sessions) signal(pid, 'SIGSTOP');
      return () => sessions.forEach((pid) => signal(pid, 'SIGCONT'));
    },
    stop: stopper(child, root),
  };
}

/** vsftpd serving `dir` to anonymous users, read-only, passive mode on loopback. */
export async function startTestFtp(): Promise<TestFileServer> {
  const root = mkdtempSync(path.join(tmpdir(), 'sift-ftp-'));
  const dir = path.join(root, 'exports');
  const empty = path.join(root, 'empty');
  mkdirSync(dir);
  mkdirSync(empty);
  const port = await freePort();
  const passive = 40_000 + Math.floor(Math.random() * 20_000);
  const config = path.join(root, 'vsftpd.conf');
  writeFileSync(
    config,
    [
      'listen=YES',
      'listen_ipv6=NO',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=YES',
      `anon_root=${dir}`,
      'no_anon_password=YES',
      'local_enable=NO',
      'write_enable=NO',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${passive}`,
      `pasv_max_port=${passive + 50}`,
      `secure_chroot_dir=${empty}`,
      'seccomp_sandbox=NO',
      'xferlog_enable=NO',
      'syslog_enable=NO',
      `vsftpd_log_file=${path.join(root, 'vsftpd.log')}`,
      '',
    ].join('\n'),
  );
  const child = await serve('/usr/sbin/vsftpd', [config], port, 'vsftpd');
  return { dir, url: `ftp://127.0.0.1:${port}/`, stop: stopper(child, root) };
}
