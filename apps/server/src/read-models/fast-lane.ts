import { and, asc, eq, gt, gte, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { operators } from '../modules/admin/admin.tables.js';
import { users } from '../modules/auth/auth.tables.js';
import { payouts } from '../modules/payouts/payouts.tables.js';
import { type WithdrawalRow, withdrawals } from '../modules/withdrawals/withdrawals.tables.js';

/**
 * The fast lane's two questions of the database (docs/withdrawals.md "Fast lane"). They read the
 * withdrawals, members and operators beside the payouts in one statement each, because the lane asks
 * them every few seconds and a question per row per module would cost a round trip per withdrawal.
 */

/**
 * Pending withdrawals that the fast lane may send, oldest first: at most `maxMicro`, never sent on
 * chain before (a reverted or dropped payout is the operator's to look at), from a member in good
 * standing: not suspended, no operator, an account older than `accountBefore`, paid before to this
 * same address, and no withdrawal of theirs rejected since `rejectedSince`.
 */
export async function fastLaneCandidates(
  db: Executor,
  query: { maxMicro: bigint; accountBefore: Date; rejectedSince: Date; afterId: number; limit: number },
): Promise<WithdrawalRow[]> {
  const earlier = sql`earlier`;
  return db
    .select({ withdrawal: withdrawals })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(
      and(
        eq(withdrawals.status, 'pending'),
        lte(withdrawals.amountMicro, query.maxMicro),
        gt(withdrawals.id, query.afterId),
        isNull(users.suspendedAt),
        lte(users.createdAt, query.accountBefore),
        sql`not exists (select 1 from ${payouts} where ${payouts.withdrawalId} = ${withdrawals.id})`,
        sql`not exists (select 1 from ${operators} where ${operators.userId} = ${withdrawals.userId})`,
        sql`exists (select 1 from ${withdrawals} as ${earlier}
          where ${earlier}.user_id = ${withdrawals.userId} and ${earlier}.id < ${withdrawals.id}
            and ${earlier}.status = 'completed' and lower(${earlier}.address) = lower(${withdrawals.address}))`,
        sql`not exists (select 1 from ${withdrawals} as ${earlier}
          where ${earlier}.user_id = ${withdrawals.userId} and ${earlier}.status = 'failed'
            and ${earlier}.decided_at >= ${query.rejectedSince.toISOString()})`,
      ),
    )
    .orderBy(asc(withdrawals.id))
    .limit(query.limit)
    .then((rows) => rows.map((row) => row.withdrawal));
}

/**
 * Micro-USDT the fast lane has sent since `since`, all members and this member: payouts that moved or
 * may still move money (a reverted or dropped one moved nothing).
 */
export async function fastLaneSentSince(
  db: Executor,
  since: Date,
  userId: number | null,
): Promise<{ allMicro: bigint; memberMicro: bigint }> {
  const [row] = await db
    .select({
      all: sql<string>`coalesce(sum(${payouts.amountMicro}), 0)`,
      member: sql<string>`coalesce(sum(${payouts.amountMicro}) filter (where ${withdrawals.userId} = ${userId ?? -1}), 0)`,
    })
    .from(payouts)
    .innerJoin(withdrawals, eq(withdrawals.id, payouts.withdrawalId))
    .where(
      and(
        eq(payouts.sentVia, 'auto'),
        gte(payouts.createdAt, since),
        notInArray(payouts.state, ['reverted', 'dropped']),
      ),
    );
  return { allMicro: BigInt(row?.all ?? 0), memberMicro: BigInt(row?.member ?? 0) };
}
