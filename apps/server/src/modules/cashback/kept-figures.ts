import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { type KeptTable, type RebuiltFigures, rebuildKeptTable } from '../../db/kept-table.js';
import { MEMBER_CHANGES_CHANNEL } from '../../db/member-changes-channel.js';

/**
 * The figures statement triggers keep beside the records and rewards (docs/ledger.md, 6a–6e), each
 * with the statement that computes it from scratch: the same sums their migrations started from.
 */
const KEPT_FIGURES: readonly KeptTable[] = [
  {
    table: 'rebate_uid_totals',
    columns: 'plat_id, uid, status, records, trading_volume_micro, last_created_at',
    fill: sql`select plat_id, uid, status, count(*), sum(trading_volume_micro), max(created_at)
      from rebates group by plat_id, uid, status`,
    // Settling empties a UID's pending row, which the triggers keep at zero; the sums have no such row.
    spent: sql`records = 0 and trading_volume_micro = 0`,
  },
  {
    table: 'rebate_uid_days',
    columns: 'plat_id, uid, day, amount_micro',
    fill: sql`select plat_id, uid, (period_start at time zone 'UTC')::date, sum(amount_micro)
      from rebates where status = 'completed' and amount_micro > 0
      group by plat_id, uid, (period_start at time zone 'UTC')::date`,
  },
  {
    table: 'invite_bonus_totals',
    columns: 'inviter_id, friend_id, amount_micro',
    fill: sql`select user_id, source_user_id, sum(amount_micro) from event_rewards
      where kind = 'inviteBonus' and source_user_id is not null group by user_id, source_user_id`,
  },
  {
    table: 'invite_bonus_binding_totals',
    columns: 'binding_id, inviter_id, amount_micro, held_micro, hold_ends_at',
    fill: sql`select binding_id, user_id, sum(amount_micro),
        coalesce(sum(amount_micro) filter (where hold_ends_at is not null), 0), max(hold_ends_at)
      from event_rewards where kind = 'inviteBonus' and binding_id is not null group by binding_id, user_id`,
  },
  {
    table: 'event_reward_counts',
    columns: 'user_id, rewards',
    fill: sql`select user_id, count(*) from event_rewards group by user_id`,
  },
];

/**
 * Computes every kept figure again from the records and rewards and replaces what the triggers kept,
 * in the caller's transaction: `ops -- kept:rebuild`, for when `ledger:check` names a kept figure that
 * is off (a backfill that missed a row booked during its migration, a hand edit). The records and
 * rewards are locked against writers first, so no statement adds to a figure between its sum and its
 * replacement; imports and settlements wait for the commit.
 */
export async function rebuildKeptFigures(tx: Transaction): Promise<RebuiltFigures[]> {
  await tx.execute(sql`lock table rebates, event_rewards in share row exclusive mode`);
  const rebuilt: RebuiltFigures[] = [];
  for (const figure of KEPT_FIGURES) rebuilt.push(await rebuildKeptTable(tx, figure));
  // The kept figures are shown by kept member answers (the record list's total, the detail's days) and
  // these tables notify no one: every instance drops every kept answer at the commit.
  await tx.execute(sql`select pg_notify(${MEMBER_CHANGES_CHANNEL}, '*')`);
  return rebuilt;
}
