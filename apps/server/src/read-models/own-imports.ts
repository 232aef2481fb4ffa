import { and, between, eq, isNull, or } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { importRuns } from '../modules/admin/admin.tables.js';
import { rebates, referrals } from '../modules/cashback/cashback.tables.js';

/**
 * Whether a figures file this member imported (as an operator, in the console or with
 * `rebates:import`) stored a record of this UID on this exchange: the record names its import run
 * (`rebates.import_run_id`, migration 0048), whose operator is this member. Read in the binding's
 * transaction (bindings.service.ts, `bindOwnImport`).
 *
 * Records stored before migration 0048 name no run. For those rows only, the run is still matched as
 * before: a succeeded figures run of this member on this exchange whose file name is the record's
 * source label and during which the record arrived. That match may name two runs (two files of one
 * name imported at overlapping times by two operators: the bind is then refused for either, the safe
 * side) and misses a record stamped after its run ended; the migration does not backfill it, since
 * the ambiguous rows would still need this fallback (docs/decisions.md, "Records name their import
 * run"). Records of the exchanges' API (and the demo seed) name no run and match none.
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
        eq(importRuns.operatorId, userId),
        or(
          eq(importRuns.id, rebates.importRunId),
          and(
            isNull(rebates.importRunId),
            eq(rebates.source, 'csv'),
            eq(importRuns.kind, 'rebates'),
            eq(importRuns.status, 'succeeded'),
            eq(importRuns.platId, rebates.platId),
            eq(importRuns.fileName, rebates.sourceLabel),
            between(rebates.createdAt, importRuns.startedAt, importRuns.finishedAt),
          ),
        ),
      ),
    )
    .where(and(eq(rebates.platId, platId), eq(rebates.uid, uid)))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether a roster file this member imported (as an operator, in the console or with
 * `referrals:import`) listed this UID on this exchange first: the UID's roster row came from a CSV
 * whose name is the file name of a succeeded roster run of this member on this exchange, during which
 * the row was written. Read in the binding's transaction (bindings.service.ts, `bindOwnRoster`).
 *
 * Only the line that put the UID in the roster counts: a later line restating it changes nothing
 * (first seen wins). Roster rows do not name their run; their `first_seen_at` is the import's own
 * clock reading between the run's start and end, so the match misses none. It may name two runs (two
 * roster files of one name imported at overlapping times by two operators): the bind is then refused
 * for either, the safe side (docs/decisions.md, "A roster line is money too"). Rows of the exchanges'
 * API (the sync, a bind's live check) and imports without an operator match none.
 */
export async function importedRosterOf(
  db: Executor,
  userId: number,
  platId: number,
  uid: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: referrals.id })
    .from(referrals)
    .innerJoin(
      importRuns,
      and(
        eq(importRuns.operatorId, userId),
        eq(importRuns.kind, 'referrals'),
        eq(importRuns.status, 'succeeded'),
        eq(importRuns.platId, referrals.platId),
        eq(importRuns.fileName, referrals.sourceLabel),
        between(referrals.firstSeenAt, importRuns.startedAt, importRuns.finishedAt),
      ),
    )
    .where(and(eq(referrals.platId, platId), eq(referrals.uid, uid), eq(referrals.source, 'csv')))
    .limit(1);
  return row !== undefined;
}
