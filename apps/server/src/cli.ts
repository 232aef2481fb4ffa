import type { AppDeps } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { dataDirOwner, lockDataDir } from './db/data-dir-lock.js';
import { systemClock } from './lib/clock.js';
import type { CommandIo } from './lib/progress-bar.js';
import { adminCommands } from './modules/admin/admin.commands.js';
import { importCommands } from './modules/admin/imports.commands.js';
import { cashbackCommands } from './modules/cashback/cashback.commands.js';
import { housekeepingCommands } from './modules/housekeeping/housekeeping.commands.js';
import { syncCommands } from './modules/sync/sync.commands.js';
import { withdrawalCommands } from './modules/withdrawals/withdrawals.commands.js';

/**
 * Operator commands: `npm run ops -- <command> [args]`. Each command receives an open database.
 * With embedded PGlite the data directory must not be held by a running server (one process per
 * directory); with DATABASE_URL every command connects to PostgreSQL as usual.
 */
interface Command {
  summary: string;
  usage: string;
  run(context: CommandContext, args: string[]): Promise<number>;
}

type CommandContext = {
  db: Awaited<ReturnType<typeof openDatabase>>['db'];
  out: (line: string) => void;
  err: (line: string) => void;
  /** What the server's modules get, so a command calls the same services. */
  deps: AppDeps;
};

const commands: Record<string, Command> = {
  'db:migrate': {
    summary: 'bring the database to the latest migration',
    usage: 'db:migrate',
    async run(context) {
      context.out('Database is at the latest migration.');
      return 0;
    },
  },
  ...Object.fromEntries(
    Object.entries({
      ...importCommands,
      ...cashbackCommands,
      ...syncCommands,
      ...adminCommands,
      ...withdrawalCommands,
      ...housekeepingCommands,
    }).map(([name, command]): [string, Command] => [
      name,
      {
        summary: command.summary,
        usage: command.usage,
        run: (context, args) => {
          const io: CommandIo = {
            out: context.out,
            err: context.err,
            progress: Boolean(process.stderr.isTTY),
            progressLines: !process.stdout.isTTY,
          };
          return command.run(context.deps, args, io);
        },
      },
    ]),
  ),
};

function printHelp(out: (line: string) => void) {
  out('Usage: npm run ops -- <command> [arguments]\n');
  for (const command of Object.values(commands)) out(`  ${command.usage.padEnd(40)} ${command.summary}`);
}

async function main(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    if (name && name !== 'help' && name !== '--help') process.stderr.write(`Unknown command: ${name}\n\n`);
    printHelp(out);
    return name && name !== 'help' && name !== '--help' ? 2 : 0;
  }
  const config = loadConfig();
  let unlock = () => {};
  if (config.database.kind === 'pglite') {
    const owner = dataDirOwner(config.database.dataDir);
    if (owner !== undefined) {
      process.stderr.write(
        `The server (pid ${owner}) holds ${config.database.dataDir}. Stop it, or run the command with DATABASE_URL.\n`,
      );
      return 1;
    }
    unlock = lockDataDir(config.database.dataDir);
  }
  const database = await openDatabase(config.database);
  try {
    const err = (line: string) => process.stderr.write(`${line}\n`);
    const deps: AppDeps = { config, db: database.db, databaseKind: database.kind, clock: systemClock };
    return await command.run({ db: database.db, out, err, deps }, args);
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
