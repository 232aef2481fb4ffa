// The server build's esbuild options (scripts/build.mjs), shared with start-graph.test.ts, which
// builds them to memory and checks what main.js loads at start.
import fs from 'node:fs';
import path from 'node:path';

export const serverRoot = path.resolve(import.meta.dirname, '..');

const readPackage = (folder) => JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
// viem is bundled: the server calls a few of its functions, and loading the whole package at start cost
// a fifth of the start time (tree-shaking keeps what is called). Only payouts.chain-client.ts, loaded on
// first use, may import a value from it: esbuild's code splitting puts whatever a lazy chunk shares with
// main's static graph into chunks main.js imports, so one `parseGwei` from viem's index brought its
// clients and signing into every start (start-graph.test.ts). Every other dependency stays external.
const BUNDLED = new Set(['@elex/contract', 'viem', 'drizzle-orm', 'zod']);
const external = new Set(
  [serverRoot, path.join(serverRoot, '../../packages/contract')]
    .flatMap((folder) => Object.keys(readPackage(folder).dependencies ?? {}))
    .filter((name) => !BUNDLED.has(name)),
);
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Dependencies (`fastify`, `drizzle-orm/pg-core`) stay imports resolved from node_modules at run time. */
const dependenciesExternal = {
  name: 'dependencies-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      external.has(packageName(args.path)) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** esbuild's options for the server build into `outdir`. */
export function serverBuildOptions(outdir) {
  return {
    absWorkingDir: serverRoot,
    entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts' },
    outdir,
    bundle: true,
    // main and cli share most modules: one copy of each, in chunks both import.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Readable stack traces in the operators' logs: names kept, nothing minified.
    keepNames: true,
    sourcemap: 'linked',
    // Chunks beside the entries: src/paths.ts relies on every file being one level below apps/server.
    chunkNames: 'chunk-[hash]',
    plugins: [dependenciesExternal],
    logLevel: 'warning',
  };
}
