import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * The invite bonuses a UID's records paid because `friendId` held it since `since` (their binding),
 * per inviter whose account still exists (a deleted one's rewards were forfeited with it), in
 * micro-USDT. It joins the rewards, the records and the members, so it lives here. What an operator
 * deciding a dispute must see: moving the binding moves the UID's
 * cashback, not these (docs/support.md). The friend's bonuses come from
 * event_rewards_friend_bonus_idx, each checked against the UID by its record's primary key.
 */
export async function selectHolderInviterBonuses(
  db: Executor,
  query: { platId: number; uid: string; friendId: number; since: Date },
): Promise<Array<{ inviterId: number; amountMicro: bigint }>> {
  const rows = rowsOf<{ user_id: string | number; amount: string }>(
    await db.execute(sql`
      select e.user_id, sum(e.amount_micro)::text as amount
      from event_rewards e
      join rebates r on r.id = e.rebate_id
      join users u on u.id = e.user_id
      where e.kind = 'inviteBonus' and e.source_user_id = ${query.friendId}
        and e.created_at >= ${query.since.toISOString()}::timestamptz
        and r.plat_id = ${query.platId} and r.uid = ${query.uid} and u.deleted_at is null
      group by e.user_id
      order by e.user_id`),
  );
  return rows.map((row) => ({ inviterId: Number(row.user_id), amountMicro: BigInt(row.amount) }));
}
