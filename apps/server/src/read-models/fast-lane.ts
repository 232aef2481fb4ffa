import { and, asc, eq, gt, gte, inArray, isNull, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { qualified } from '../db/qualified.js';
import { operators } from '../modules/admin/admin.tables.js';
import { users } from '../modules/auth/auth.tables.js';
import { payouts } from '../modules/payouts/payouts.tables.js';
import { type WithdrawalRow, withdrawals } from '../modules/withdrawals/withdrawals.tables.js';

/**
 * The fast lane's questions of the database (docs/withdrawals.md "Fast lane"): its candidates, why a
 * withdrawal is not one (the console), and what it sent. They read the withdrawals, members and
 * operators beside the payouts in one statement each, because the lane asks them every few seconds
 * and a question per row per module would cost a round trip per withdrawal.
 */

/** What the lane's conditions depend on besides the withdrawal: its maximum and two moments. */
interface LaneTerms {
  maxMicro: bigint;
  /** A member's withdrawals paused after a password change or reset until later than this wait. */
  now: Date;
  accountBefore: Date;
  rejectedSince: Date;
}

/**
 * The lane's conditions on a pending withdrawal (joined with its member), each named by the reason
 * it gives when it fails, in the order the lane asks them: at most `maxMicro`, never sent on chain
 * before (a reverted or dropped payout is the operator's to look at), no operator's own, a member not
 * suspended nor in the 72 h pause after a password change or reset, an account older than `accountBefore`, paid before to this same address, and no
 * withdrawal of theirs rejected since `rejectedSince`. The candidates' filter and the console's
 * reasons are these same texts.
 */
function laneConditions(terms: LaneTerms) {
  const earlier = sql`earlier`;
  return {
    overMaximum: lte(withdrawals.amountMicro, terms.maxMicro),
    sentBefore: sql`not exists (select 1 from ${payouts} where ${payouts.withdrawalId} = ${qualified(withdrawals.id)})`,
    operator: sql`not exists (select 1 from ${operators} where ${operators.userId} = ${qualified(withdrawals.userId)})`,
    suspended: isNull(users.suspendedAt),
    passwordChanged: or(
      isNull(users.withdrawalLockedUntil),
      lte(users.withdrawalLockedUntil, terms.now),
    ) as SQL,
    accountTooNew: lte(users.createdAt, terms.accountBefore),
    newAddress: sql`exists (select 1 from ${withdrawals} as ${earlier}
          where ${earlier}.user_id = ${qualified(withdrawals.userId)} and ${earlier}.id < ${qualified(withdrawals.id)}
            and ${earlier}.status = 'completed' and lower(${earlier}.address) = lower(${qualified(withdrawals.address)}))`,
    recentRejection: sql`not exists (select 1 from ${withdrawals} as ${earlier}
          where ${earlier}.user_id = ${qualified(withdrawals.userId)} and ${earlier}.status = 'failed'
            and ${earlier}.decided_at >= ${terms.rejectedSince.toISOString()})`,
  } satisfies Record<string, SQL>;
}

/** A reason a withdrawal's own conditions give for leaving it to an operator. */
export type LaneConditionReason = keyof ReturnType<typeof laneConditions>;

/** Pending withdrawals that the fast lane may send, oldest first, after `afterId`. */
export async function fastLaneCandidates(
  db: Executor,
  query: LaneTerms & { afterId: number; limit: number },
): Promise<WithdrawalRow[]> {
  return db
    .select({ withdrawal: withdrawals })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(
      and(
        eq(withdrawals.status, 'pending'),
        gt(withdrawals.id, query.afterId),
        ...Object.values(laneConditions(query)),
      ),
    )
    .orderBy(asc(withdrawals.id))
    .limit(query.limit)
    .then((rows) => rows.map((row) => row.withdrawal));
}

/**
 * The pending withdrawals among `ids`, each with the first of the lane's conditions it fails (null:
 * none), for the console to say why the lane leaves one to an operator.
 */
export async function fastLaneConditionsOf(
  db: Executor,
  query: LaneTerms & { ids: number[] },
): Promise<Array<{ withdrawal: WithdrawalRow; failed: LaneConditionReason | null }>> {
  if (query.ids.length === 0) return [];
  const conditions = Object.entries(laneConditions(query)) as Array<[LaneConditionReason, SQL]>;
  const firstFailed = sql.join(
    [
      sql`case`,
      ...conditions.map(([reason, condition]) => sql`when not (${condition}) then ${reason}`),
      sql`end`,
    ],
    sql` `,
  );
  const rows = await db
    .select({ withdrawal: withdrawals, failed: sql<string | null>`${firstFailed}` })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(and(eq(withdrawals.status, 'pending'), inArray(withdrawals.id, query.ids)));
  return rows.map((row) => ({
    withdrawal: row.withdrawal,
    failed: row.failed as LaneConditionReason | null,
  }));
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
