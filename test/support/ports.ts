import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a process the test starts itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
