import { adminCommands } from '../modules/admin/admin.commands.js';
import { importCommands } from '../modules/admin/imports.commands.js';
import { cashbackCommands } from '../modules/cashback/cashback.commands.js';
import { housekeepingCommands } from '../modules/housekeeping/housekeeping.commands.js';
import { payoutCommands } from '../modules/payouts/payouts.commands.js';
import { syncCommands } from '../modules/sync/sync.commands.js';
import { withdrawalCommands } from '../modules/withdrawals/withdrawals.commands.js';
import type { OpsCommand } from './command.js';

/** Every operator command by name: the CLI lists and parses them, both runners look them up. */
/** The command of that name, if it is one (never a property every object has, such as `constructor`). */
export function findOpsCommand(name: string): OpsCommand | undefined {
  return Object.hasOwn(opsCommands, name) ? opsCommands[name] : undefined;
}

export const opsCommands: Record<string, OpsCommand> = {
  'db:migrate': {
    summary: 'bring the database to the latest migration',
    usage: 'db:migrate',
    // Opening the database migrates it (the server's start too): a deploy runs this before anyone
    // could be an operator.
    needsOperator: false,
    async run(_deps, _args, io) {
      io.out('Database is at the latest migration.');
      return 0;
    },
  },
  ...importCommands,
  ...cashbackCommands,
  ...syncCommands,
  ...adminCommands,
  ...withdrawalCommands,
  ...payoutCommands,
  ...housekeepingCommands,
};
