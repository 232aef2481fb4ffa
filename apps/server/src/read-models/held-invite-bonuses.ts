import type { Executor } from '../db/client.js';
import { queryText } from '../db/prepared.js';

/**
 * The invite bonuses an inviter may not withdraw yet (docs/withdrawals.md, "Invite bonuses wait for
 * their friend's ownership check"). Settlement records on each bonus the friend's binding that paid it
 * and, if that binding was unconfirmed, when its ownership hold ends (`hold_ends_at`). A bonus is held
 * - until `hold_ends_at`, unless an operator has since confirmed that binding: whatever became of the
 *   binding (the friend deleting the account or an unbind does not free it early);
 * - past it, while a dispute on the UID opened inside that window is still open (a dispute opened
 *   later cannot freeze money that was already free, so nobody can lock an inviter's rewards by
 *   opening one).
 * Without it an accomplice binding a stranger's UID would let their inviter withdraw 10 % of the
 * stranger's cashback before the owner could dispute.
 *
 * `$1` is the inviter, `$2` now. The first branch reads only the inviter's bonuses whose hold has not
 * ended (`event_rewards_held_idx`), the second starts from the open disputes, which are few, and reads
 * the bonuses their bindings paid this inviter (`event_rewards_binding_idx`). One row per bonus:
 * `release` is its hold's end, null while a dispute holds it.
 */
const HELD_BONUSES = `
  select id, min(amount_micro) as amount_micro,
    case when bool_or(disputed) then null else max(hold_ends_at) end as release
  from (
    select e.id, e.amount_micro, e.hold_ends_at, false as disputed
    from event_rewards e
    join exchange_bindings b on b.id = e.binding_id
    where e.user_id = $1::bigint and e.hold_ends_at > $2::timestamptz and b.ownership_verified_at is null
    union all
    select e.id, e.amount_micro, e.hold_ends_at, true
    from support_requests s
    join exchange_bindings b on b.plat_id = s.plat_id and b.uid = s.uid and b.bound_at <= s.created_at
    join event_rewards e on e.binding_id = b.id and e.user_id = $1::bigint and e.hold_ends_at > s.created_at
    where s.kind = 'uidBoundByOther' and s.status <> 'closed'
  ) as held
  group by id`;

/**
 * The held bonuses in one row: `held_rewards` (micro-USDT, text), `held_until` (the latest hold end
 * among those held by time, or null) and `held_disputed` (some wait for a dispute). A subquery the
 * withdrawable summary embeds with the same two parameters.
 */
export const HELD_INVITE_BONUSES_TOTAL = `
  select coalesce(sum(amount_micro), 0)::text as held_rewards,
    max(release) as held_until,
    coalesce(bool_or(release is null), false) as held_disputed
  from (${HELD_BONUSES}) as bonuses`;

export interface HeldInviteBonuses {
  heldMicro: bigint;
  /** When the last bonus held by time is released; null when none is. */
  until: Date | null;
  /** Some wait for an ownership dispute to be settled. */
  disputed: boolean;
}

export interface HeldInviteBonusesRow {
  held_rewards: string;
  held_until: Date | string | null;
  held_disputed: boolean;
}

export function toHeldInviteBonuses(row: HeldInviteBonusesRow | undefined): HeldInviteBonuses {
  return {
    heldMicro: BigInt(row?.held_rewards ?? '0'),
    until: row?.held_until ? new Date(row.held_until) : null,
    disputed: row?.held_disputed ?? false,
  };
}

/** The inviter's held bonuses now, on any executor (the withdrawal request asks again in its transaction). */
export async function selectHeldInviteBonuses(
  db: Executor,
  inviterId: number,
  now: Date,
): Promise<HeldInviteBonuses> {
  const [row] = await queryText<HeldInviteBonusesRow>(db, HELD_INVITE_BONUSES_TOTAL, [
    inviterId,
    now.toISOString(),
  ]);
  return toHeldInviteBonuses(row);
}
