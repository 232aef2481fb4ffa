import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { eventRewards } from '../cashback/cashback.tables.js';

/** The cashback engine's kind of an invite bonus event reward. */
const INVITE_BONUS_KIND = 'inviteBonus';

/**
 * Invite bonuses (micro-USDT) the inviter received from each friend's cashback, and in total. The
 * cashback engine books them at settlement (ledger journal `inviteBonus:<rebateId>` into
 * `rewards:<inviterId>`, recorded in `event_rewards` with the friend as source).
 *
 * TRESPASS, on purpose and in one place: this reads the cashback module's `event_rewards` table
 * because that module exports no per-friend sum yet. It belongs in cashback.service as
 * `inviteBonusesBySource(db, inviterId, friendIds)`; when it exists this file becomes a call to it.
 */
export async function inviteBonusesByFriend(
  db: Executor,
  inviterId: number,
  friendIds: readonly number[],
): Promise<Map<number, bigint>> {
  if (friendIds.length === 0) return new Map();
  const rows = await db
    .select({
      friendId: eventRewards.sourceUserId,
      total: sql<string>`coalesce(sum(${eventRewards.amountMicro}), 0)::text`,
    })
    .from(eventRewards)
    .where(
      and(
        eq(eventRewards.userId, inviterId),
        eq(eventRewards.kind, INVITE_BONUS_KIND),
        inArray(eventRewards.sourceUserId, [...friendIds]),
      ),
    )
    .groupBy(eventRewards.sourceUserId);
  return new Map(
    rows.filter((row) => row.friendId !== null).map((row) => [row.friendId as number, BigInt(row.total)]),
  );
}

/** Every invite bonus the inviter received, micro-USDT. */
export async function inviteBonusTotal(db: Executor, inviterId: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${eventRewards.amountMicro}), 0)::text` })
    .from(eventRewards)
    .where(and(eq(eventRewards.userId, inviterId), eq(eventRewards.kind, INVITE_BONUS_KIND)));
  return BigInt(row?.total ?? '0');
}
