/**
 * Bundles `entry` (a path from the repository root or absolute) with Sift's workspace packages into
 * `outfile` (likewise), third-party packages left external; resolves with the bundle's absolute
 * path, rejects with esbuild's error when the sources do not build.
 */
export function buildServer(entry: string, outfile: string): Promise<string>;

/** Node options Sift's server runs with (`npm start`, the compose file, the benchmarks' Sift alone). */
export const SERVER_NODE_FLAGS: string[];
