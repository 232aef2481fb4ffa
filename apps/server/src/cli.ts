import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { dataDirOwner, lockDataDir } from './db/data-dir-lock.js';
import type { AppDeps } from './deps.js';
import { systemClock } from './lib/clock.js';
import { osUser } from './modules/admin/audit.service.js';
import { findOpsCommand, opsCommands } from './ops/commands.js';
import { takeOperatorFlag } from './ops/operator-flag.js';
import { opsSocketPath, runThroughServer } from './ops/ops-socket.js';
import { type OpsRequest, runOpsCommand } from './ops/run-command.js';

/**
 * Operator commands: `npm run ops -- <command> [args] [--operator <email|id>]`. With DATABASE_URL a
 * command connects to PostgreSQL as usual. With embedded PGlite it opens the data directory itself
 * when no server holds it; while a server holds it (one process per directory), the server runs the
 * command for it over DATA_DIR/ops.sock (ops/ops-socket.ts). Either way `runOpsCommand` runs it.
 */
const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function printHelp() {
  out('Usage: npm run ops -- <command> [arguments] [--operator <email|id>]\n');
  for (const command of Object.values(opsCommands)) out(`  ${command.usage.padEnd(40)} ${command.summary}`);
  out('\nA command that changes data runs as an operator: --operator, or ELEX_OPERATOR in the environment.');
}

async function main(argv: string[]): Promise<number> {
  const flag = takeOperatorFlag(argv);
  if ('error' in flag) {
    err(flag.error);
    return 2;
  }
  const [name, ...args] = flag.rest;
  if (!name || !findOpsCommand(name)) {
    const asked = name && name !== 'help' && name !== '--help';
    if (asked) err(`Unknown command: ${name}\n`);
    printHelp();
    return asked ? 2 : 0;
  }
  const request: OpsRequest = {
    name,
    args,
    operator: flag.operator ?? (process.env.ELEX_OPERATOR || undefined),
    osUser: osUser(),
  };
  const config = loadConfig();
  let unlock = () => {};
  if (config.database.kind === 'pglite') {
    const dataDir = config.database.dataDir;
    const owner = dataDirOwner(dataDir);
    if (owner !== undefined) {
      const socketPath = opsSocketPath(dataDir);
      const code = await runThroughServer(
        socketPath,
        // Lines, not a bar: the bar draws on the server's terminal, not this one.
        { ...request, cwd: process.cwd(), progressLines: true },
        { out, err },
      );
      if (code !== 'unreachable') return code;
      // Another command holding the directory itself, or a server of an older version.
      err(
        `Process ${owner} holds ${dataDir} but takes no commands at ${socketPath}: wait for the command ` +
          'it runs to end, or restart the server with this version.',
      );
      return 1;
    }
    unlock = lockDataDir(dataDir);
  }
  const database = await openDatabase(config.database);
  try {
    const deps: AppDeps = { config, db: database.db, databaseKind: database.kind, clock: systemClock };
    return await runOpsCommand(deps, request, {
      out,
      err,
      progress: Boolean(process.stderr.isTTY),
      progressLines: !process.stdout.isTTY,
    });
  } finally {
    await database.close();
    unlock();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`,
    );
    process.exit(1);
  },
);
