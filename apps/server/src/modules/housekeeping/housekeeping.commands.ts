import type { AppDeps } from '../../deps.js';
import { type AuditActor, recordAudit } from '../admin/audit.service.js';
import { runHousekeeping } from './housekeeping.service.js';

/**
 * `npm run ops -- housekeeping`: the daily housekeeping, now, printing what it deleted per table.
 * Exit 0 when it ran (also when there was nothing to delete), 1 when the database refused, 2 on a
 * wrong call.
 */
export interface HousekeepingCommandIo {
  out(line: string): void;
  err(line: string): void;
}

export const housekeepingCommands = {
  housekeeping: {
    summary: 'delete expired codes, ended sessions, old sent mails and empty sync runs now',
    usage: 'housekeeping',
    run: runHousekeepingCommand,
  },
};

export async function runHousekeepingCommand(
  deps: AppDeps,
  args: string[],
  io: HousekeepingCommandIo,
  actor: AuditActor,
): Promise<number> {
  if (args.length > 0) {
    io.err(
      `housekeeping: takes no arguments\nUsage: npm run ops -- ${housekeepingCommands.housekeeping.usage}`,
    );
    return 2;
  }
  let result: Awaited<ReturnType<typeof runHousekeeping>>;
  try {
    result = await runHousekeeping(deps);
  } catch (error) {
    io.err(`housekeeping failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const total = result.tables.reduce((sum, table) => sum + table.deleted, 0);
  // Deletions nobody asked for one by one, but someone ran them: the log says who and how many.
  await recordAudit(deps.db, {
    actor,
    action: 'housekeeping.run',
    target: 'housekeeping',
    after: Object.fromEntries(result.tables.map((table) => [table.table, table.deleted])),
    at: result.at,
  });
  io.out(`Housekeeping at ${result.at.toISOString()}: ${total} rows deleted.`);
  const width = Math.max(...result.tables.map((table) => table.table.length));
  const countWidth = Math.max(...result.tables.map((table) => String(table.deleted).length));
  for (const table of result.tables) {
    const more = table.complete ? '' : ' (more left: run it again)';
    io.out(
      `  ${table.table.padEnd(width)}  ${String(table.deleted).padStart(countWidth)}  ${table.description}${more}`,
    );
  }
  return 0;
}
