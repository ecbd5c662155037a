// Bundles an entry point of Sift's server (the API, the ingest worker, a benchmark's server) with
// its workspace packages (@sift/api, @sift/ingest-worker, @sift/clickhouse) into one JavaScript file
// under dist/, so the process runs on plain Node instead of compiling TypeScript as it loads (tsx):
// the all-in-one process starts with less resident memory. Third-party packages stay
// external (loaded from node_modules as usual), but for a workspace's own version of one.
//
//   node scripts/build-server.mjs <entry.ts> <out.mjs>
//
// Files found relative to a source module (`import.meta.url`: the migrations, the web app's build)
// are still found: each module keeps its own source file's URL. A bundle is rebuilt every time
// (it is quick), so it never runs stale code; it is written to a temporary name and renamed into place.
import { build } from 'esbuild';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Node options Sift's server runs with (`npm start`, the compose file, the benchmarks' Sift alone):
 * a young generation of 4 MB semi-spaces instead of V8's 16 MB. Parsing an xlsx sheet makes
 * garbage at a high rate and each semi-space fills with it before a collection; smaller ones are
 * collected more often, which lowers the peak (docs/benchmarks.md, "The server bundle and its Node options"). A V8
 * option read when the heap is made, so it must be given on the command line (or in NODE_OPTIONS),
 * not set at run time.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];

/**
 * esbuild plugin: workspace packages are bundled; every other package that Node would find in the
 * root node_modules from dist/ stays external. A package a workspace holds a version of its own
 * (in the workspace's node_modules, because the root keeps another version for another package) is
 * bundled, so each module gets the version its workspace asked for.
 */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    const hoisted = path.join(root, 'node_modules') + path.sep;
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@sift/') || args.pluginData?.inner) return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { inner: true },
      });
      if (found.errors.length > 0) return { errors: found.errors };
      if (found.external || found.path.startsWith(hoisted)) return { path: args.path, external: true };
      return found;
    });
  },
};

/**
 * esbuild plugin: in Sift's own modules, `import.meta.url`, `.dirname` and `.filename` keep their
 * source module's values (this script's own check for being run, too).
 */
const sourceLocations = {
  name: 'source-locations',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
    });
  },
};

/**
 * Bundles `entry` (a path from the repository root or absolute) into `outfile` (likewise) and
 * resolves with the bundle's absolute path. Rejects with esbuild's error when the sources do not
 * build.
 */
export async function buildServer(entry, outfile) {
  const out = path.resolve(root, outfile);
  const temporary = `${out}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [path.resolve(root, entry)],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // A bundled CommonJS package's require() of an external one (a nested package's dependency) needs a
    // require, resolving from the repository root like the bundle's external imports.
    banner: {
      js: `import { createRequire as siftRequire } from 'node:module'; const require = siftRequire(${JSON.stringify(pathToFileURL(path.join(root, 'package.json')).href)});`,
    },
    plugins: [externalPackages, sourceLocations],
  });
  await rename(temporary, out);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [entry, outfile] = process.argv.slice(2);
  if (!entry || !outfile) {
    console.error('usage: node scripts/build-server.mjs <entry.ts> <out.mjs>');
    process.exit(2);
  }
  console.log(await buildServer(entry, outfile));
}
