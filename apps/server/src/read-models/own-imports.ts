import { and, between, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { importRuns } from '../modules/admin/admin.tables.js';
import { rebates } from '../modules/cashback/cashback.tables.js';

/**
 * Whether a figures file this member imported (as an operator, in the console or with
 * `rebates:import`) stored a record of this UID: the record's file name, exchange and arrival inside
 * that import's run. Records do not name their import run; two files of one name imported at
 * overlapping times by two operators count for both (the bind is then refused for either: the safe
 * side). Read in the binding's transaction (bindings.service.ts, `bindOwnImport`).
 */
export async function importedFiguresOf(
  db: Executor,
  userId: number,
  platId: number,
  uid: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: rebates.id })
    .from(rebates)
    .innerJoin(
      importRuns,
      and(
        eq(importRuns.kind, 'rebates'),
        eq(importRuns.status, 'succeeded'),
        eq(importRuns.operatorId, userId),
        eq(importRuns.platId, rebates.platId),
        eq(importRuns.fileName, rebates.sourceLabel),
        between(rebates.createdAt, importRuns.startedAt, importRuns.finishedAt),
      ),
    )
    .where(and(eq(rebates.platId, platId), eq(rebates.uid, uid), eq(rebates.source, 'csv')))
    .limit(1);
  return row !== undefined;
}
