// `npm run build -w @elex/server`: the server as plain JavaScript in dist/, so production starts with
// `node dist/main.js` (no TypeScript compiled at start, no dev dependencies). esbuild bundles our own
// code (the server and @elex/contract, whose package points at TypeScript sources); the dependencies
// stay imports resolved from node_modules at run time, as they are under tsx.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBuildOptions, serverRoot } from './build-options.mjs';

const outdir = path.join(serverRoot, 'dist');

fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build(serverBuildOptions(outdir));

console.log(
  `built the server into ${path.relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`,
);
