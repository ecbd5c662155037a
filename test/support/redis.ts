/** A Redis server of a test's own (redis-server on a free loopback port), for cases the shared one cannot show. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './ports.ts';
import { waitFor } from './wait.ts';

export interface TestRedis {
  url: string;
  /** The server's process (tests stop it with SIGSTOP to make Redis hang). */
  child: ChildProcess;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** True when the Redis at `url` answers PING. */
export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Starts redis-server with `options` (e.g. `--maxmemory-policy`, `allkeys-lru`); resolves once it answers. */
export async function startTestRedis(...options: string[]): Promise<TestRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...options],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(() => redisAnswers(url), Boolean, {
    intervalMs: 50,
    what: `Redis on port ${port} to answer`,
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT'); // a stopped process takes SIGTERM only once it runs again
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}
