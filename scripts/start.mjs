// `npm start`: builds what is missing or older than its sources (the web app, the server), then runs the
// built server (which migrates the database and serves the SPA and the API on PORT, 3000 by default).
// With both builds up to date it needs no dev dependency: production runs plain JavaScript.
import { spawn, spawnSync } from 'node:child_process';
import { builds, repoRoot, staleBuilds } from './build-state.mjs';

for (const name of staleBuilds()) {
  console.log(`Building the ${name}…`);
  const [command, ...args] = builds[name].command;
  const build = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { cwd: repoRoot, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
