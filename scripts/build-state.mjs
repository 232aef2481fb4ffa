// Which production builds are missing or older than their sources: `npm start` and `npm run ops`
// rebuild those, the e2e suite refuses to test a stale one.
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export const builds = {
  web: {
    output: 'apps/web/dist/index.html',
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/public',
      'apps/web/vite.config.ts',
      'packages/contract/src',
    ],
    command: ['npm', 'run', 'build', '-w', '@elex/web'],
  },
  server: {
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', 'apps/server/scripts', 'apps/server/package.json', 'packages/contract/src'],
    command: ['npm', 'run', 'build', '-w', '@elex/server'],
  },
};

// Tests are not part of a build: editing one must not make it stale.
const isTest = (name) => /\.test\.tsx?$/.test(name);

function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat || isTest(target)) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

/** The names of the builds (`web`, `server`) that are missing or older than a source file. */
export function staleBuilds() {
  return Object.entries(builds)
    .filter(([, build]) => {
      const builtAt = fs.statSync(path.join(repoRoot, build.output), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      return Math.max(...build.sources.map((source) => newestMtime(path.join(repoRoot, source)))) > builtAt;
    })
    .map(([name]) => name);
}
