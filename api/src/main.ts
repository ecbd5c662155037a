/** Entry point of `npm start`: the all-in-one Sift process. */
import { startSift } from './server.ts';

try {
  const sift = await startSift();
  console.log(`Sift is running at ${sift.url}`);
  const stop = async (signal: string) => {
    console.log(`${signal} received, shutting down`);
    await sift.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
