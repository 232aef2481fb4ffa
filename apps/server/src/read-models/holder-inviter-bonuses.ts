import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * The invite bonuses a UID's records paid because `friendId` held it through binding `bindingId` (since
 * `since`), per inviter whose account still exists (a deleted one's rewards were forfeited with it), in
 * micro-USDT. It joins the rewards, the records and the members, so it lives here. What an operator
 * deciding a dispute must see: moving the binding moves the UID's cashback, not these
 * (docs/support.md). Bonuses booked since 2026-11-28 name their binding and are summed per binding and
 * inviter as they are booked (`invite_bonus_binding_totals`); older ones are found by the friend who
 * earned them (`event_rewards_friend_bonus_idx`), each checked against the UID by its record's primary
 * key.
 */
export async function selectHolderInviterBonuses(
  db: Executor,
  query: { platId: number; uid: string; friendId: number; since: Date; bindingId: number },
): Promise<Array<{ inviterId: number; amountMicro: bigint }>> {
  const rows = rowsOf<{ user_id: string | number; amount: string }>(
    await db.execute(sql`
      select paid.user_id, sum(paid.amount_micro)::text as amount
      from (
        select k.inviter_id as user_id, k.amount_micro
        from invite_bonus_binding_totals k
        where k.binding_id = ${query.bindingId}
        union all
        select e.user_id, e.amount_micro
        from event_rewards e
        join rebates r on r.id = e.rebate_id
        where e.kind = 'inviteBonus' and e.source_user_id = ${query.friendId} and e.binding_id is null
          and e.created_at >= ${query.since.toISOString()}::timestamptz
          and r.plat_id = ${query.platId} and r.uid = ${query.uid}
      ) as paid
      join users u on u.id = paid.user_id
      where u.deleted_at is null
      group by paid.user_id
      order by paid.user_id`),
  );
  return rows.map((row) => ({ inviterId: Number(row.user_id), amountMicro: BigInt(row.amount) }));
}
