// `npm run ops -- <command>`: the operator commands from the server build (rebuilt first when a source
// is newer), so they run where production runs, without a TypeScript loader.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { builds, repoRoot, staleBuilds } from './build-state.mjs';

if (staleBuilds().includes('server')) {
  const [command, ...args] = builds.server.command;
  // Quietly: the command's own output is what the operator reads.
  const build = spawnSync(command, [...args, '--silent'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const cli = spawn(
  process.execPath,
  [path.join(repoRoot, 'apps/server/dist/cli.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cli.kill(signal));
cli.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
