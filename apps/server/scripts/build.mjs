// `npm run build -w @elex/server`: the server as plain JavaScript in dist/, so production starts with
// `node dist/main.js` (no TypeScript compiled at start, no dev dependencies). esbuild bundles our own
// code (the server and @elex/contract, whose package points at TypeScript sources); the dependencies
// stay imports resolved from node_modules at run time, as they are under tsx.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');
const outdir = path.join(serverRoot, 'dist');

const readPackage = (folder) => JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
// viem is bundled: the server calls a few of its functions, and loading the whole package at start cost
// a fifth of the start time (tree-shaking keeps what is called). Every other dependency stays external.
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

fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build({
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
});
console.log(
  `built the server into ${path.relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`,
);
