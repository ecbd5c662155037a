import { once } from 'node:events';
import { Writable } from 'node:stream';

/**
 * A Writable that copies every chunk to each of `targets` (e.g. the HTTP response and the kept
 * export file), going only as fast as the slowest (it waits for `drain` where a target is full), and
 * ending them when it ends (except those in `leaveOpen`, which the caller ends). If a target fails or closes before it has finished (the client went
 * away, the disk is full), the stream fails with that error, so the writer stops instead of waiting
 * forever for a `drain` that will not come.
 */
export function broadcastStream(targets: Writable[], options: { leaveOpen?: Writable[] } = {}): Writable {
  const toEnd = targets.filter((t) => !options.leaveOpen?.includes(t));
  const out: Writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const full = targets.filter((t) => !t.write(chunk));
      if (!full.length) return callback();
      Promise.all(full.map((t) => once(t, 'drain'))).then(() => callback(), callback);
    },
    final(callback) {
      Promise.all(
        toEnd.map((t) => {
          const done = once(t, 'finish');
          t.end();
          return done;
        }),
      ).then(() => callback(), callback);
    },
  });
  for (const t of targets) {
    t.on('error', (e) => out.destroy(e));
    t.on('close', () => {
      if (!t.writableFinished && !out.writableFinished)
        out.destroy(new Error('An export target closed before the export ended'));
    });
  }
  return out;
}
