import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { supportRequests } from './support.tables.js';

/** A dispute on this exchange that no operator has decided yet: the one condition both reads share. */
function openDisputeOn(platId: number, uidMatches: SQL): SQL | undefined {
  return and(
    eq(supportRequests.kind, 'uidBoundByOther'),
    ne(supportRequests.status, 'closed'),
    eq(supportRequests.platId, platId),
    uidMatches,
  );
}

/**
 * Whether an open dispute (a support request 'uidBoundByOther' not closed) freezes a UID's money.
 * Its own file, apart from support.service: withdrawals ask it, and the support service asks the
 * withdrawals module about withdrawals under review, so going through the service would make the two
 * import each other. Read with the caller's executor: inside a transaction that holds the UID's
 * cashback account lock it sees every dispute committed before (a dispute takes that lock too).
 */
export async function isUidFrozen(db: Executor, platId: number, uid: string): Promise<boolean> {
  const [row] = await db
    .select({ id: supportRequests.id })
    .from(supportRequests)
    .where(openDisputeOn(platId, eq(supportRequests.uid, uid)))
    .limit(1);
  return row !== undefined;
}

/**
 * The open disputes on each of these UIDs that has some, oldest first: settlement writes them on the
 * invite bonuses it books, which then wait until every one of them is decided (docs/withdrawals.md).
 * One JSON parameter, whatever the number of UIDs (a settlement page holds up to 20,000). Read under
 * the UIDs' account locks, as `isUidFrozen`.
 */
export async function openDisputesOf(
  db: Executor,
  platId: number,
  uids: readonly string[],
): Promise<Map<string, number[]>> {
  if (uids.length === 0) return new Map();
  const rows = await db
    .select({
      uid: supportRequests.uid,
      ids: sql<Array<number | string>>`array_agg(${supportRequests.id} order by ${supportRequests.id})`,
    })
    .from(supportRequests)
    .where(
      openDisputeOn(
        platId,
        sql`${supportRequests.uid} in (select json_array_elements_text(${JSON.stringify(uids)}::json))`,
      ),
    )
    .groupBy(supportRequests.uid);
  return new Map(rows.map((row) => [row.uid as string, row.ids.map(Number)]));
}
