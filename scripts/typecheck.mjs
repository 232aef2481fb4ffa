/**
 * `npm run typecheck`: every workspace checked by TypeScript 7's native compiler (the `typescript7`
 * alias). `typescript` itself stays 5.9 for the tools that load its JavaScript API (dependency-cruiser),
 * which TypeScript 7 no longer has (docs/decisions.md, "Types checked by TypeScript 7").
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const PROJECTS = ['packages/contract', 'apps/server', 'apps/web', 'e2e', 'bench'];
const root = path.join(import.meta.dirname, '..');
// The package exports no bin path, and `node_modules/.bin/tsc` is whichever of the two npm linked last.
const tsc = path.join(root, 'node_modules', 'typescript7', 'bin', 'tsc');

for (const project of PROJECTS) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`typecheck: ${project} has type errors (TypeScript 7)`);
    process.exit(status ?? 1);
  }
}
