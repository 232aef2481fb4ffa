import { and, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rebates } from '../cashback/cashback.tables.js';

/**
 * The cumulative trading volume (micro-USDT) of these UIDs (a member's live bindings): the sum of
 * trading_volume over every rebate record the exchanges reported for them, whatever its settlement
 * status (a record that paid no cashback still had its trades).
 *
 * TRESPASS, on purpose and in one place: this reads the cashback module's `rebates` table because
 * that module exports no such figure yet. It belongs in cashback.service as
 * `tradingVolumeOf(db, pairs): Promise<bigint>`; when it exists this file becomes a call to it.
 */
export async function tradingVolumeOf(
  db: Executor,
  pairs: ReadonlyArray<{ platId: number; uid: string }>,
): Promise<bigint> {
  if (pairs.length === 0) return 0n;
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${rebates.tradingVolumeMicro}), 0)::text` })
    .from(rebates)
    .where(or(...pairs.map((pair) => and(eq(rebates.platId, pair.platId), eq(rebates.uid, pair.uid)))));
  return BigInt(row?.total ?? '0');
}
