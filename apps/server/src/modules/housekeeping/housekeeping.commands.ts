import type { AppDeps } from '../../deps.js';
import { type AuditActor, confirmOperatorRole, recordAuditAsHappened } from '../admin/audit.service.js';
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
  // Each batch asks for the operator's role in its transaction; refused, the run stops there (the
  // batches before stay deleted and are audited below) and runOpsCommand ends with exit 2 and why.
  const result = await runHousekeeping(deps, { confirm: (tx) => confirmOperatorRole(tx, actor) });
  const total = result.tables.reduce((sum, table) => sum + table.deleted, 0);
  // Deletions nobody asked for one by one, but someone ran them: the log says who and how many, also
  // when a later rule failed (the earlier ones' batches are committed).
  await recordAuditAsHappened(deps.db, {
    actor,
    action: 'housekeeping.run',
    target: 'housekeeping',
    after: {
      ...Object.fromEntries(result.tables.map((table) => [table.table, table.deleted])),
      ...(result.failure ? { failedAt: result.failure.table } : {}),
    },
    at: result.at,
  });
  if (result.failure) {
    const { error, table } = result.failure;
    io.err(`housekeeping failed at ${table}: ${error instanceof Error ? error.message : String(error)}`);
  }
  io.out(`Housekeeping at ${result.at.toISOString()}: ${total} rows deleted.`);
  const width = Math.max(...result.tables.map((table) => table.table.length));
  const countWidth = Math.max(...result.tables.map((table) => String(table.deleted).length));
  for (const table of result.tables) {
    const more = table.complete ? '' : ' (more left: run it again)';
    io.out(
      `  ${table.table.padEnd(width)}  ${String(table.deleted).padStart(countWidth)}  ${table.description}${more}`,
    );
  }
  return result.failure ? 1 : 0;
}
